import { decodeBase64 } from './base64.ts';
import { derTimeToIso, nameToText, readCertificate, type CertificateParts } from './der.ts';
import type { Outcome } from './outcome.ts';

/** Certificates of a chain read at most: real chains have 2-4. */
export const maxChainCertificates = 10;

/** One certificate of a pasted or fetched chain, leaf first. */
export interface ChainCertificate {
  der: Uint8Array;
  parts: CertificateParts;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

const privateKeyMessage =
  'This is a private key. A private key must never be pasted into any web page or tool, this one included: ' +
  'paste the certificate (-----BEGIN CERTIFICATE-----) instead';
const privateKeyAdvice =
  ' If the key was sent anywhere, treat it as exposed: make a new key and certificate.';

/**
 * Reads a PEM chain (RFC 7468 §5): one or more `-----BEGIN CERTIFICATE-----` blocks, leaf first.
 * Refuses, with words saying what was pasted, a private key, a certificate request, a bare public key
 * or text that holds no certificate.
 */
export function parsePemChain(text: string): Outcome<ChainCertificate[]> {
  const blocks = [...text.matchAll(BLOCK)];
  const label = (block: RegExpMatchArray) => block[1] ?? '';
  if (
    blocks.some((block) => label(block).includes('PRIVATE KEY')) ||
    /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)
  )
    return { ok: false, error: `${privateKeyMessage}.${privateKeyAdvice}` };
  const certificates: ChainCertificate[] = [];
  for (const block of blocks) {
    const kind = label(block);
    if (kind === 'CERTIFICATE REQUEST' || kind === 'NEW CERTIFICATE REQUEST')
      return {
        ok: false,
        error:
          'This is a certificate signing request (CSR), not a certificate: paste the certificate your CA issued for it',
      };
    if (kind === 'PUBLIC KEY')
      return {
        ok: false,
        error:
          'This is a bare public key, not a certificate: paste the server certificate (-----BEGIN CERTIFICATE-----)',
      };
    if (kind !== 'CERTIFICATE') continue;
    const number = certificates.length + 1;
    if (number > maxChainCertificates)
      return {
        ok: false,
        error: `The chain has more than ${maxChainCertificates} certificates: paste the server's chain only`,
      };
    const decoded = decodeBase64(block[2] ?? '');
    if (!decoded.ok)
      return { ok: false, error: `Certificate ${number} is not valid base64: ${decoded.error}` };
    const parts = readCertificate(decoded.bytes);
    if (!parts.ok)
      return { ok: false, error: `Certificate ${number} is not an X.509 certificate: ${parts.error}` };
    certificates.push({ der: decoded.bytes, parts: parts.value });
  }
  if (certificates.length === 0)
    return {
      ok: false,
      error:
        'No certificate found: paste the PEM certificate chain, each certificate from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----, the server certificate first',
    };
  return { ok: true, result: certificates };
}

/** What a page shows of a certificate: names and validity as RFC 5280 §4.1.2 gives them. */
export interface CertificateView {
  /** 0 is the server (leaf) certificate. */
  index: number;
  subject: string;
  issuer: string;
  notBefore: string | null;
  notAfter: string | null;
  /** Subject equals issuer: a root or a self-signed server certificate. */
  selfIssued: boolean;
}

export function certificateView(certificate: ChainCertificate, index: number): CertificateView {
  const { parts } = certificate;
  const subject = nameToText(parts.subject);
  const issuer = nameToText(parts.issuer);
  return {
    index,
    subject,
    issuer,
    notBefore: derTimeToIso(parts.notBefore) ?? null,
    notAfter: derTimeToIso(parts.notAfter) ?? null,
    selfIssued:
      parts.subject.length === parts.issuer.length &&
      parts.subject.every((octet, i) => octet === parts.issuer[i]),
  };
}
