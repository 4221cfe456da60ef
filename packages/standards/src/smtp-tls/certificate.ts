import {
  derTimeToIso,
  nameAttributes,
  nameToText,
  OID_COMMON_NAME,
  readSubjectAltNames,
} from '../core/der.ts';
import type { Outcome } from '../core/outcome.ts';
import { parsePemChain } from '../core/pem.ts';
import type { SmtpTlsCertificateDetails, SmtpTlsCertificateInfo } from './schema.ts';

/** id-on-dnsSRV, the SRVName otherName (RFC 4985 §2). */
export const OID_SRV_NAME = '1.3.6.1.5.5.7.8.7';

export interface SmtpTlsCertificate {
  info: SmtpTlsCertificateInfo;
  details: SmtpTlsCertificateDetails;
}

/**
 * The identifiers of the server certificate (the first of a pasted chain): DNS-IDs and SRV-IDs from
 * subjectAltName (RFC 5280 §4.2.1.6, RFC 4985), the subject CN (the last one, the most specific, as
 * RFC 6125 §6.4.4 clients take it), URI-IDs and addresses, and the validity period.
 */
export function readSmtpTlsCertificate(pem: string): Outcome<SmtpTlsCertificate> {
  const chain = parsePemChain(pem);
  if (!chain.ok) return chain;
  const leaf = chain.result[0]!;
  const names = readSubjectAltNames(leaf.parts.extensions);
  if (!names.ok)
    return { ok: false, error: `The certificate's subjectAltName cannot be read: ${names.error}` };
  const commonNames = nameAttributes(leaf.parts.subject)
    .filter((attribute) => attribute.type === OID_COMMON_NAME)
    .map((attribute) => attribute.value);
  const dnsIds: string[] = [];
  const srvIds: string[] = [];
  const uriIds: string[] = [];
  const ipAddresses: string[] = [];
  for (const name of names.value) {
    if (name.kind === 'dns') dnsIds.push(name.value);
    else if (name.kind === 'uri') uriIds.push(name.value);
    else if (name.kind === 'ip') ipAddresses.push(name.value);
    else if (name.kind === 'other' && name.typeId === OID_SRV_NAME && name.value !== null)
      srvIds.push(name.value);
  }
  const commonName = commonNames.at(-1) ?? null;
  return {
    ok: true,
    result: {
      info: { dnsIds, srvIds, commonName },
      details: {
        subject: nameToText(leaf.parts.subject),
        issuer: nameToText(leaf.parts.issuer),
        notBefore: derTimeToIso(leaf.parts.notBefore) ?? null,
        notAfter: derTimeToIso(leaf.parts.notAfter) ?? null,
        dnsIds,
        srvIds,
        commonName,
        uriIds,
        ipAddresses,
      },
    },
  };
}
