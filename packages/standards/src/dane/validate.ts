import type { CryptoProvider } from '../core/crypto.ts';
import { readCertificate, readSubjectPublicKeyInfo } from '../core/der.ts';
import { toValidationResult, type Diagnostic, type ValidationResult } from '../core/diagnostic.ts';
import { toHex } from '../core/hex.ts';
import {
  fieldAcronym,
  isPkixUsage,
  isSmtpRelay,
  TLSA_PRIVATE_USE,
  tlsaDigestOctets,
  tlsaMatchingTypes,
  tlsaParametersText,
  tlsaSelectors,
  tlsaUsages,
} from './fields.ts';
import { matchTlsa } from './match.ts';
import { parseTlsa, type TlsaPresentation } from './parse.ts';
import { certificateView, parsePemChain } from '../core/pem.ts';
import type { TlsaChainResult, TlsaParsed, TlsaValidationResultData } from './schema.ts';

/** The record in one normal line, data in lower-case hex as the generator writes it. */
export function presentTlsa(record: {
  owner?: string | null;
  usage: number;
  selector: number;
  matchingType: number;
  data: Uint8Array;
}): string {
  const rdata = `${record.usage} ${record.selector} ${record.matchingType} ${toHex(record.data)}`;
  return record.owner ? `${record.owner} IN TLSA ${rdata}` : rdata;
}

function fieldChecks(record: TlsaPresentation, diagnostics: Diagnostic[]): void {
  const fields = [
    {
      value: record.usage,
      values: tlsaUsages,
      what: 'certificate usage',
      span: record.spans.usage,
      code: 'USAGE',
      rfc: 'RFC 6698 §2.1.1',
    },
    {
      value: record.selector,
      values: tlsaSelectors,
      what: 'selector',
      span: record.spans.selector,
      code: 'SELECTOR',
      rfc: 'RFC 6698 §2.1.2',
    },
    {
      value: record.matchingType,
      values: tlsaMatchingTypes,
      what: 'matching type',
      span: record.spans.matchingType,
      code: 'MATCHING_TYPE',
      rfc: 'RFC 6698 §2.1.3',
    },
  ];
  for (const field of fields) {
    const known = field.values.map((entry) => entry.value);
    if (known.includes(field.value)) continue;
    const range = `${known[0]}-${known.at(-1)}`;
    diagnostics.push(
      field.value === TLSA_PRIVATE_USE
        ? {
            severity: 'warning',
            code: `TLSA_${field.code}_PRIVATE`,
            message: `The ${field.what} 255 is for private use: only clients of your own that know its meaning can use this record`,
            rfc: field.rfc,
            fix: `Use an assigned ${field.what} (${range}) for clients on the Internet.`,
            span: field.span,
          }
        : {
            severity: 'error',
            code: `TLSA_${field.code}_UNASSIGNED`,
            message: `The ${field.what} ${field.value} is unassigned (${range} are defined): clients treat the record as unusable`,
            rfc: `${field.rfc}, RFC 6698 §4.1`,
            fix: `Use an assigned ${field.what}: ${field.values.map((entry) => `${entry.value} ${entry.acronym}`).join(', ')}.`,
            span: field.span,
          },
    );
  }
}

function dataChecks(record: TlsaPresentation, diagnostics: Diagnostic[]): void {
  const span = record.spans.data;
  const expected = tlsaDigestOctets[record.matchingType];
  if (expected !== undefined && record.data.length !== expected) {
    const name = fieldAcronym(tlsaMatchingTypes, record.matchingType);
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_DIGEST_LENGTH',
      message: `A ${name} digest is ${expected} octets (${expected * 2} hex digits); this data has ${record.data.length} octets (${record.data.length * 2} hex digits)`,
      requirement: 'MUST',
      rfc: 'RFC 6698 §2.1.3',
      fix: `Copy the whole digest again, or pick the matching type of the digest you have (${record.data.length === 32 ? '1 for SHA-256' : record.data.length === 64 ? '2 for SHA-512' : 'generate the record from the certificate'}).`,
      span,
    });
  }
  if (record.matchingType !== 0) return;
  if (record.selector === 0) {
    const certificate = readCertificate(record.data);
    if (!certificate.ok)
      diagnostics.push({
        severity: 'error',
        code: 'TLSA_FULL_DATA_NOT_CERTIFICATE',
        message: `With selector 0 and matching type 0 the data must be a whole DER certificate, but it is not: ${certificate.error}`,
        requirement: 'MUST',
        rfc: 'RFC 6698 §2.1.2',
        fix: 'Paste the certificate’s full DER as hex (openssl x509 -outform DER | xxd -p), or use matching type 1 with its SHA-256.',
        span,
      });
  } else if (record.selector === 1) {
    const spki = readSubjectPublicKeyInfo(record.data);
    if (!spki.ok)
      diagnostics.push({
        severity: 'error',
        code: 'TLSA_FULL_DATA_NOT_SPKI',
        message: `With selector 1 and matching type 0 the data must be a whole DER SubjectPublicKeyInfo, but it is not: ${spki.error}`,
        requirement: 'MUST',
        rfc: 'RFC 6698 §2.1.2',
        fix: 'Paste the key’s DER as hex (openssl x509 -pubkey -noout | openssl pkey -pubin -outform DER | xxd -p), or use matching type 1.',
        span,
      });
  }
  diagnostics.push({
    severity: 'info',
    code: 'TLSA_FULL_DATA_LARGE',
    message: `Matching type 0 publishes the ${record.selector === 0 ? 'whole certificate' : 'whole public key'} (${record.data.length} octets) in DNS: large answers need TCP or fragment over UDP`,
    rfc: 'RFC 6698 §2.1.3',
    fix: 'Publish the SHA-256 digest instead (matching type 1): 32 octets that match just as well.',
    span: record.spans.matchingType,
  });
}

/** Usage advice of RFC 7671 §5 and, on port 25, the SMTP rules of RFC 7672 §3.1. */
function usageAdvice(record: TlsaPresentation, diagnostics: Diagnostic[]): void {
  const { usage, selector, matchingType } = record;
  const port = record.owner?.port ?? null;
  if (isPkixUsage(usage) && isSmtpRelay(port, record.owner?.protocol ?? null)) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_PKIX_USAGE_ON_SMTP',
      message: `Usage ${usage} (${fieldAcronym(tlsaUsages, usage)}) is unusable for SMTP: mail servers treat PKIX-TA and PKIX-EE records as unusable, so this record protects no mail`,
      requirement: 'SHOULD NOT',
      rfc: 'RFC 7672 §3.1.3',
      fix: 'Publish DANE-EE (3 1 1) for the server key, optionally with DANE-TA (2 1 1) for its issuing CA.',
      span: record.spans.usage,
    });
  } else if (isPkixUsage(usage) && port === null) {
    diagnostics.push({
      severity: 'info',
      code: 'TLSA_PKIX_USAGE_NOT_FOR_SMTP',
      message: `Usage ${usage} (${fieldAcronym(tlsaUsages, usage)}) also needs the chain to validate to a public CA; for SMTP on port 25 it is unusable`,
      rfc: 'RFC 7672 §3.1.3',
      fix: 'For SMTP, publish DANE-EE (3 1 1) instead.',
      span: record.spans.usage,
    });
  }
  if (usage === 3 && selector === 1 && matchingType === 1)
    diagnostics.push({
      severity: 'info',
      code: 'TLSA_RECOMMENDED_FORM',
      message:
        '3 1 1 (DANE-EE SPKI SHA2-256) is the recommended form: it pins the server key and survives certificate renewals that keep the key',
      rfc: 'RFC 7671 §5.1',
      span: record.spans.usage,
    });
  if (usage === 3 && selector === 0)
    diagnostics.push({
      severity: 'warning',
      code: 'TLSA_EE_WHOLE_CERTIFICATE',
      message: `${usage} 0 ${matchingType} ties the record to one certificate: every renewal, even with the same key, breaks it until the record is updated`,
      rfc: 'RFC 7671 §5.1',
      fix: 'Use selector 1 (SPKI): 3 1 1 matches the key, which a renewal can keep.',
      span: record.spans.selector,
    });
  if (usage === 2 && !(selector === 0 && matchingType === 0))
    diagnostics.push({
      severity: 'info',
      code: 'TLSA_TA_IN_CHAIN',
      message:
        'A DANE-TA record that holds only a digest matches only when the server sends that CA certificate in its chain',
      requirement: 'MUST',
      rfc: 'RFC 7671 §5.2.2',
      fix: 'Configure the server to send the full chain, the CA this record names included.',
      span: record.spans.usage,
    });
}

/** Parses and checks one TLSA record (RFC 6698 §2, RFC 7671, RFC 7672 §3.1 on port 25). */
export function validateTlsa(text: string): ValidationResult<TlsaParsed> {
  const { record, diagnostics } = parseTlsa(text);
  if (!record) return toValidationResult(diagnostics);
  fieldChecks(record, diagnostics);
  dataChecks(record, diagnostics);
  usageAdvice(record, diagnostics);
  const parsed: TlsaParsed = {
    owner: record.owner,
    ttl: record.ttl,
    usage: record.usage,
    selector: record.selector,
    matchingType: record.matchingType,
    parameters: tlsaParametersText(record.usage, record.selector, record.matchingType),
    data: toHex(record.data),
    dataOctets: record.data.length,
    record: presentTlsa({ ...record, owner: record.owner?.name ?? null }),
  };
  return toValidationResult(diagnostics, parsed);
}

/**
 * The validator's answer: the record's checks and, with a pasted chain, which certificate of the
 * chain the record matches and whether that is the one its usage names (RFC 7671 §5).
 */
export async function validateTlsaWithChain(
  body: { record: string; chain?: string | undefined },
  crypto: CryptoProvider,
): Promise<TlsaValidationResultData> {
  const record = validateTlsa(body.record);
  const result = { ...record, recordValid: record.valid };
  if (body.chain === undefined || body.chain.trim() === '') return result;
  const chain = parsePemChain(body.chain);
  if (!chain.ok) {
    const diagnostic: Diagnostic = {
      severity: 'error',
      code: 'TLSA_CHAIN_UNREADABLE',
      message: `The certificate chain could not be read: ${chain.error}`,
      rfc: 'RFC 7468 §5',
      fix: 'Paste the PEM certificates the server sends, the server certificate first.',
    };
    return {
      ...toValidationResult([...result.diagnostics, diagnostic], result.parsed),
      recordValid: record.valid,
    };
  }
  const parsed = result.parsed;
  const views = chain.result.map(certificateView);
  if (parsed === undefined) return { ...result, chain: { certificates: views, matching: [], matched: null } };
  const data = Uint8Array.from(parsed.data.match(/../g) ?? [], (pair) => parseInt(pair, 16));
  const found = await matchTlsa({ ...parsed, data }, chain.result, crypto);
  const position = (index: number) =>
    index === 0
      ? 'the server certificate'
      : `certificate ${index + 1} of the chain (${views[index]?.subject ?? ''})`;
  const diagnostics = [...result.diagnostics];
  if (found.usable !== null)
    diagnostics.push({
      severity: 'info',
      code: 'TLSA_CHAIN_MATCH',
      message: `The record matches ${position(found.usable)}`,
      rfc: 'RFC 6698 §2.1',
    });
  else if (found.matching.length > 0) {
    const index = found.matching[0] ?? 0;
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_CHAIN_WRONG_POSITION',
      message: `The data matches ${position(index)}, but usage ${parsed.usage} (${fieldAcronym(tlsaUsages, parsed.usage)}) names ${index === 0 ? 'a CA certificate above the server certificate' : 'the server certificate itself'}: clients will not accept it`,
      requirement: 'MUST',
      rfc: 'RFC 7671 §5',
      fix:
        index === 0
          ? `Use usage 3 (DANE-EE) for the server certificate: 3 ${parsed.selector} ${parsed.matchingType}.`
          : `Use usage 2 (DANE-TA) for a CA certificate: 2 ${parsed.selector} ${parsed.matchingType}.`,
    });
  } else
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_CHAIN_NO_MATCH',
      message: `No certificate of the pasted chain (${views.length}) matches ${parsed.parameters} with this data: a client would refuse the connection`,
      requirement: 'MUST',
      rfc: 'RFC 6698 §2.1, RFC 7671 §5',
      fix: 'Generate the record again from the certificate the server presents now, publish it beside the old one, and remove the old one after its TTL (RFC 7671 §8).',
    });
  const chainResult: TlsaChainResult = {
    certificates: views,
    matching: found.matching,
    matched: found.usable,
  };
  return { ...toValidationResult(diagnostics, parsed), recordValid: record.valid, chain: chainResult };
}
