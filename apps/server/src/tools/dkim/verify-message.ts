/**
 * DKIM message verification (RFC 6376 §6) with mailauth doing the canonicalization and crypto. Keys
 * are fetched only through the Resolver we are given (the guarded DNS client on the server, zone
 * data in tests), and RFC 8301 is applied on top of mailauth's answer: rsa-sha1 and RSA keys under
 * 1024 bits fail even where the library would accept them.
 */
import {
  dkimKeyNotCheckedReason,
  looksLikeDkimKeyRecord,
  otherTxtDiagnostic,
  validateDkimRecord,
  type Diagnostic,
  type DkimSignatureResult,
  type DkimSignatureVerdict,
  type DkimVerifyMessageResult,
  type DnsResult,
  type Resolver,
} from '@rfckit/standards';
import { dkimVerify } from 'mailauth';
import { keyLookups, RSA_MINIMUM_BITS } from '../../mailauth/key-lookups.ts';
import { isResolverFailure } from '../../net/dns.ts';

/** The most key names one message may make us look up; each is a DNS query. */
const MAX_KEY_LOOKUPS = 32;
/** The most signatures verified one at a time when the library cannot verify them together. */
const MAX_SEPARATE_RUNS = 16;

export interface VerifyMessageOptions {
  resolver: Resolver;
  /** Verification time (default: now); x= is compared with it. */
  now?: Date;
}

type LibraryResult = Awaited<ReturnType<typeof dkimVerify>>['results'][number];

/**
 * mailauth's terse comments on a key or identity it refused (RFC 6376's own words, kept first) with
 * what they mean, so the reason says what to fix.
 */
const KEY_REFUSALS: ReadonlyMap<string, { reason: string; rfc: string }> = new Map([
  [
    'inappropriate hash algorithm',
    {
      reason: "inappropriate hash algorithm: the key record's h= does not list the signature's hash",
      rfc: 'RFC 6376 §6.1.2',
    },
  ],
  [
    'inappropriate key algorithm',
    {
      reason: "inappropriate key algorithm: the key record's k= does not match the signature's a=",
      rfc: 'RFC 6376 §6.1.2',
    },
  ],
  [
    'key not for email',
    { reason: "key not for email: the key record's s= includes neither email nor *", rfc: 'RFC 6376 §3.6.1' },
  ],
  [
    'unknown key version',
    { reason: "unknown key version: the key record's v= is not DKIM1", rfc: 'RFC 6376 §3.6.1' },
  ],
  [
    'unknown key type',
    { reason: "unknown key type: the key record's k= is neither rsa nor ed25519", rfc: 'RFC 6376 §3.6.1' },
  ],
  [
    'signature syntax error',
    { reason: 'signature syntax error: i= is not a valid identity', rfc: 'RFC 6376 §6.1.1' },
  ],
]);

/** The result and reason mailauth's (strict mode) answer stands for, in RFC 6376 terms. */
function fromLibrary(
  status: LibraryResult['status'],
  lookup: DnsResult | undefined,
  keyStatus: string | null,
  keyFlags: readonly string[],
): { result: DkimSignatureResult; reason: string | null; rfc: string | null } {
  const comment = typeof status.comment === 'string' ? status.comment : null;
  switch (status.result) {
    case 'pass':
      return { result: 'pass', reason: null, rfc: null };
    case 'fail':
      if (comment === 'body hash did not verify') {
        return { result: 'fail', reason: 'body hash did not verify', rfc: 'RFC 6376 §6.1.3' };
      }
      return {
        result: 'fail',
        reason:
          comment === 'bad signature' ? 'signature did not verify' : (comment ?? 'signature did not verify'),
        rfc: 'RFC 6376 §6.1.3',
      };
    case 'temperror':
      if (comment?.includes('ELIMIT')) {
        return {
          result: 'temperror',
          reason: `not looked up: more than ${MAX_KEY_LOOKUPS} keys in one message`,
          rfc: null,
        };
      }
      return {
        result: 'temperror',
        reason:
          lookup && isResolverFailure(lookup)
            ? dkimKeyNotCheckedReason
            : `key lookup failed: ${lookup?.status ?? comment}`,
        rfc: 'RFC 6376 §6.1.2',
      };
    case 'policy':
      return { result: 'policy', reason: comment ?? 'rejected by verifier policy', rfc: null };
    default: {
      if (comment === 'body hash did not verify') {
        return { result: 'fail', reason: 'body hash did not verify', rfc: 'RFC 6376 §6.1.3' };
      }
      if (comment === 'expired') return { result: 'fail', reason: 'signature expired', rfc: 'RFC 6376 §3.5' };
      if (comment === 'no key') {
        const why =
          lookup?.status === 'nxdomain'
            ? ' (NXDOMAIN)'
            : lookup?.status === 'nodata'
              ? ' (no TXT record)'
              : '';
        return { result: 'permerror', reason: `no key for signature${why}`, rfc: 'RFC 6376 §6.1.2' };
      }
      if (keyStatus === 'revoked')
        return { result: 'permerror', reason: 'key revoked', rfc: 'RFC 6376 §3.6.1' };
      if (comment === 'domain mismatch') {
        // the same comment for an i= outside d= (checked before the key lookup) and for t=s
        return keyFlags.includes('s')
          ? {
              result: 'permerror',
              reason: 'domain mismatch: the key record has t=s, so the i= domain must be exactly d=',
              rfc: 'RFC 6376 §3.6.1',
            }
          : {
              result: 'permerror',
              reason: 'domain mismatch: the i= domain is neither d= nor a subdomain of it',
              rfc: 'RFC 6376 §6.1.1',
            };
      }
      const refusal = comment === null ? undefined : KEY_REFUSALS.get(comment);
      if (refusal) return { result: 'permerror', ...refusal };
      return {
        result: 'permerror',
        reason: comment ?? 'signature could not be verified',
        rfc: 'RFC 6376 §6.1',
      };
    }
  }
}

function tagList(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(':')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The tag values of a DKIM-Signature field as written, for the fields mailauth does not return. */
function signatureTags(field: string): Map<string, string> {
  const tags = new Map<string, string>();
  const value = field.slice(field.indexOf(':') + 1);
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (name !== '' && !tags.has(name)) tags.set(name, part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}

function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

interface HeaderField {
  /** The field name, lower case. */
  name: string;
  /** The field exactly as written, folding and line ending included. */
  text: string;
}

/** The header fields of a raw message (each with its continuation lines) and the rest of it. */
function splitMessage(raw: string): { fields: HeaderField[]; rest: string } {
  const fields: HeaderField[] = [];
  let position = 0;
  while (position < raw.length) {
    const lineEnd = raw.indexOf('\n', position);
    const end = lineEnd < 0 ? raw.length : lineEnd + 1;
    const line = raw.slice(position, end);
    if (line === '\n' || line === '\r\n') break;
    const previous = fields.at(-1);
    if ((line.startsWith(' ') || line.startsWith('\t')) && previous) {
      previous.text += line;
    } else {
      fields.push({
        name: line
          .slice(0, Math.max(line.indexOf(':'), 0))
          .trim()
          .toLowerCase(),
        text: line,
      });
    }
    position = end;
  }
  return { fields, rest: raw.slice(position) };
}

/**
 * Verifies every DKIM-Signature of a raw message. Never throws for anything in the message: a
 * signature that cannot be read is a permerror with the reason.
 */
export async function verifyMessage(
  raw: string,
  options: VerifyMessageOptions,
): Promise<DkimVerifyMessageResult> {
  const now = options.now ?? new Date();
  const lookups = keyLookups(options.resolver, MAX_KEY_LOOKUPS);
  const resolver = lookups.resolve;

  const run = async (message: string): Promise<LibraryResult[]> => {
    const outcome = await dkimVerify(Buffer.from(message, 'utf8'), {
      resolver,
      curTime: now,
      strict: true,
      // RFC 8301 §3.2 is applied below, with our key measurement and wording
      minBitLength: 1,
    });
    // mailauth reports an unsigned message as one `none` entry; that is no signature at all
    return outcome.results.filter((entry) => entry.status.result !== 'none');
  };

  const { fields, rest } = splitMessage(raw);
  const signatureFields = fields.filter((field) => field.name === 'dkim-signature');
  /** One library answer per DKIM-Signature field, or the error that stopped the library on it. */
  let answers: { field: HeaderField | undefined; entry: LibraryResult | null; error: string | null }[];
  try {
    const entries = await run(raw);
    answers = entries.map((entry, index) => {
      // pair by b= (mailauth lists signatures in header order, but may skip an unreadable one)
      const byValue = signatureFields.filter(
        (field) => signatureTags(field.text).get('b') === entry.signature,
      );
      const field = byValue.length === 1 ? byValue[0] : signatureFields[index];
      return { field, entry, error: null };
    });
  } catch {
    // one signature the library cannot handle (e.g. an unknown c=) stops the whole run: verify
    // each signature on its own, with the other DKIM-Signature fields left out, to find which
    answers = [];
    for (const [index, field] of signatureFields.entries()) {
      // each run reads the whole message again: bound the work one request can cause
      if (index >= MAX_SEPARATE_RUNS) {
        answers.push({
          field,
          entry: null,
          error: `not verified: more than ${MAX_SEPARATE_RUNS} signatures to verify one by one`,
        });
        continue;
      }
      const others = fields.filter((other) => other.name !== 'dkim-signature' || other === field);
      try {
        const [entry] = await run(others.map((other) => other.text).join('') + rest);
        answers.push({ field, entry: entry ?? null, error: entry ? null : 'signature could not be read' });
      } catch (error) {
        answers.push({ field, entry: null, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  // the library skips the key lookup once the body hash fails or a=rsa-sha1 is refused; the key
  // is still worth showing, so look it up here (through the same resolver and memo)
  for (const { entry } of answers) {
    const skipped =
      entry?.status.comment === 'body hash did not verify' || entry?.status.comment === 'weak algorithm';
    if (skipped && entry.signingDomain && entry.selector) {
      await resolver(`${entry.selector}._domainkey.${entry.signingDomain}`, 'TXT').catch(() => undefined);
    }
  }

  const signatures = answers.map(({ field, entry, error }): DkimSignatureVerdict => {
    const tags = signatureTags(field?.text ?? '');
    const d = entry?.signingDomain || tags.get('d') || null;
    const s = entry?.selector || tags.get('s') || null;
    const a = entry?.algo ?? tags.get('a') ?? null;
    const dnsName = d && s ? `${s}._domainkey.${d}`.toLowerCase() : null;
    const lookup = dnsName ? lookups.answer(dnsName) : undefined;

    let key: DkimSignatureVerdict['key'] = null;
    let keyFlags: readonly string[] = [];
    if (dnsName && lookup) {
      const records = lookup.status === 'ok' ? lookup.records.map((record) => record.text) : [];
      // the record the library was handed first (key-lookups.ts puts key records first)
      const keyRecords = records.filter(looksLikeDkimKeyRecord);
      const record = keyRecords[0] ?? records[0] ?? null;
      const validation = record === null ? null : validateDkimRecord(record);
      keyFlags = validation?.parsed?.flags ?? [];
      const setDiagnostics: Diagnostic[] = [];
      if (keyRecords.length > 0) {
        for (const text of records.filter((text) => !keyRecords.includes(text))) {
          setDiagnostics.push(otherTxtDiagnostic(dnsName, text));
        }
      }
      if (keyRecords.length > 1) {
        setDiagnostics.push({
          severity: 'error',
          code: 'DKIM_DNS_MULTIPLE_RECORDS',
          message: `${dnsName} has ${keyRecords.length} key records: this verification used the first one served, but verifiers may use any of them, so signatures fail unpredictably`,
          requirement: 'MUST',
          rfc: 'RFC 6376 §3.6.2.2',
          fix: 'Publish one key record per selector; put a new key under a new selector.',
        });
      }
      key = {
        dnsName,
        record,
        lookup: lookup.status,
        type: validation?.parsed?.keyType ?? null,
        size: validation?.parsed?.keySize ?? null,
        status: validation?.parsed?.status ?? null,
        diagnostics: [...setDiagnostics, ...(validation?.diagnostics ?? [])],
      };
    }

    const library = {
      result: entry ? String(entry.status.result) : 'error',
      comment: entry ? (typeof entry.status.comment === 'string' ? entry.status.comment : null) : error,
    };
    let { result, reason, rfc } = entry
      ? fromLibrary(entry.status, lookup, key?.status ?? null, keyFlags)
      : {
          result: 'permerror' as const,
          reason: `signature could not be verified: ${error}`,
          rfc: 'RFC 6376 §6.1.1',
        };

    // RFC 8301, where the library's answer would be kinder
    if (a?.toLowerCase() === 'rsa-sha1' && result !== 'temperror') {
      result = 'fail';
      reason = 'rsa-sha1 MUST NOT be used';
      rfc = 'RFC 8301 §3.1';
    } else if (
      key?.type === 'rsa' &&
      key.size !== null &&
      key.size < RSA_MINIMUM_BITS &&
      result !== 'temperror'
    ) {
      result = 'fail';
      reason = `RSA key of ${key.size} bits is under the 1024-bit minimum`;
      rfc = 'RFC 8301 §3.2';
    }

    const expiresAt = isoTime(entry?.expiresAfter);
    const expired = expiresAt !== null && new Date(expiresAt).getTime() < now.getTime();
    if (expired && result === 'pass') {
      result = 'fail';
      reason = 'signature expired';
      rfc = 'RFC 6376 §3.5';
    }
    const expectedHash = entry?.bodyHashExpecting ?? tags.get('bh') ?? null;
    const computedHash = entry?.bodyHash ?? null;

    return {
      d,
      s,
      a,
      c: entry?.format ?? tags.get('c') ?? null,
      i: tags.get('i') ?? null,
      signedHeaders: tagList(tags.get('h')),
      bodyHash: {
        expected: expectedHash,
        computed: computedHash,
        match: expectedHash !== null && expectedHash === computedHash,
      },
      key,
      result,
      reason,
      rfc,
      signedAt: isoTime(entry?.signTime),
      expiresAt,
      expired,
      testing: entry?.status.testing === true,
      library,
    };
  });

  const passed = signatures.filter((signature) => signature.result === 'pass').length;
  const total = signatures.length;
  return {
    signatures,
    summary: {
      result: total === 0 ? 'none' : passed > 0 ? 'pass' : 'fail',
      total,
      passed,
      message:
        total === 0
          ? 'The message has no DKIM-Signature header field: nothing to verify (dkim=none)'
          : `${passed} of ${total} signature${total === 1 ? '' : 's'} verified`,
    },
  };
}
