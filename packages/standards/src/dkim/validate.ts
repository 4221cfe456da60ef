import { toValidationResult, type Diagnostic, type ValidationResult } from '../core/diagnostic.ts';
import { decodeBase64 } from '../core/base64.ts';
import { readDkimPublicKey, type DkimKeyEncoding } from './key.ts';
import { inputSpan, parseDkimRecord, type DkimTag } from './parse.ts';

/** What a key record means for verifiers. */
export type DkimRecordStatus = 'valid' | 'invalid' | 'revoked';

/** What {@link validateDkimRecord} read from the record. */
export interface DkimParsed {
  status: DkimRecordStatus;
  /** The TXT data after joining its character-strings. */
  record: string;
  /** Number of character-strings joined into `record`. */
  strings: number;
  /** Owner name of a pasted zone-file line, as written. */
  ownerName: string | null;
  /** v= as written, or `null` when absent (it then defaults to DKIM1). */
  version: string | null;
  /** k=, defaulting to rsa. */
  keyType: string;
  /** h= entries, or `null` when absent (all hash algorithms allowed). */
  hashAlgorithms: string[] | null;
  /** s= entries, defaulting to `*`. */
  serviceTypes: string[];
  /** t= flags. */
  flags: string[];
  notes: string | null;
  /** RSA modulus bits, or 256 for Ed25519; `null` when the key is absent, revoked or unreadable. */
  keySize: number | null;
  keyEncoding: DkimKeyEncoding | null;
  /** Length of the decoded p= value in bytes. */
  publicKeyBytes: number;
}

export interface DkimValidationResult extends ValidationResult<DkimParsed> {
  /** Tag name to value, as written (the spec's `tags`). */
  tags: Record<string, string>;
}

const RSA_MINIMUM = 1024;
const RSA_RECOMMENDED = 2048;
const RSA_VERIFIER_MAXIMUM = 4096;

const knownTags = new Set(['v', 'g', 'h', 'k', 'n', 'p', 's', 't']);
const knownHashes = new Set(['sha1', 'sha256']);
const knownServices = new Set(['*', 'email', 'tlsrpt']);
const knownFlags = new Set(['y', 's']);

function list(value: string): string[] {
  return value
    .split(':')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * Validates a DKIM key record, the TXT data at `selector._domainkey.domain` (RFC 6376 §3.6.1),
 * with RFC 8301 (no SHA-1, RSA of 1024 bits at least) and RFC 8463 (Ed25519). The input may be
 * the bare value, its quoted strings or a zone-file line; strings are joined first.
 *
 * `valid` is false for anything a verifier cannot use, a revoked key (empty p=) included;
 * `parsed.status` tells revoked from invalid.
 */
export function validateDkimRecord(input: string): DkimValidationResult {
  const { text, tags, diagnostics } = parseDkimRecord(input);
  const tagMap: Record<string, string> = {};
  if (!text || text.text.trim() === '') {
    if (text) {
      diagnostics.push({
        severity: 'error',
        code: 'DKIM_EMPTY',
        message: 'DKIM record is required',
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.6.1',
        fix: 'Paste the TXT value published at selector._domainkey.domain, e.g. v=DKIM1; k=rsa; p=…',
      });
    }
    return { ...toValidationResult<DkimParsed>(diagnostics), tags: tagMap };
  }
  if (!tags) return { ...toValidationResult<DkimParsed>(diagnostics), tags: tagMap };
  for (const tag of tags) tagMap[tag.name] = tag.value;
  const byName = new Map(tags.map((tag) => [tag.name, tag]));
  const whole = inputSpan(text, 0, text.text.length);

  const version = byName.get('v');
  if (version) {
    if (tags[0] !== version) {
      diagnostics.push({
        severity: 'error',
        code: 'DKIM_VERSION_NOT_FIRST',
        message: 'v= must be the first tag of the record when it is present',
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.6.1',
        fix: 'Move v=DKIM1 to the start of the record.',
        span: version.span,
      });
    }
    if (version.value !== 'DKIM1') {
      diagnostics.push({
        severity: 'error',
        code: 'DKIM_VERSION_INVALID',
        message: `v= must be exactly DKIM1; found '${version.value.slice(0, 40)}'. Verifiers discard the record`,
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.6.1',
        fix: "Write 'v=DKIM1;' (with a semicolon) as the first tag.",
        span: version.valueSpan,
      });
    }
  } else {
    diagnostics.push({
      severity: 'info',
      code: 'DKIM_VERSION_ABSENT',
      message: 'No v= tag: verifiers assume DKIM1. Starting the record with v=DKIM1 is recommended',
      requirement: 'SHOULD',
      rfc: 'RFC 6376 §3.6.1',
      fix: 'Start the record with v=DKIM1;',
      span: whole,
    });
  }

  const keyTypeTag = byName.get('k');
  const keyType = keyTypeTag?.value ?? 'rsa';
  let knownKeyType: 'rsa' | 'ed25519' | null = null;
  if (keyType === 'rsa' || keyType === 'ed25519') {
    knownKeyType = keyType;
  } else {
    const hint =
      keyType.toLowerCase() === 'rsa' || keyType.toLowerCase() === 'ed25519'
        ? `Write k=${keyType.toLowerCase()} in lower case.`
        : /^(rsa|ed25519)-sha(1|256)$/i.test(keyType)
          ? `'${keyType}' is a signature algorithm (the a= of a signature), not a key type: write k=${keyType.split('-')[0]!.toLowerCase()}.`
          : 'Use k=rsa or k=ed25519.';
    diagnostics.push({
      severity: 'error',
      code: 'DKIM_KEY_TYPE_UNKNOWN',
      message: `Unknown key type k=${keyType.slice(0, 40)}: verifiers ignore keys of unknown types, so no signature can use this key`,
      requirement: 'MUST',
      rfc: 'RFC 6376 §3.6.1',
      fix: hint,
      span: keyTypeTag?.valueSpan ?? whole,
    });
  }

  let keySize: number | null = null;
  let keyEncoding: DkimKeyEncoding | null = null;
  let publicKeyLength = 0;
  let revoked = false;
  const publicKey = byName.get('p');
  if (!publicKey) {
    diagnostics.push({
      severity: 'error',
      code: 'DKIM_PUBLIC_KEY_MISSING',
      message: 'The p= tag (public key) is required',
      requirement: 'MUST',
      rfc: 'RFC 6376 §3.6.1',
      fix: 'Add p= with the base64 public key.',
      span: whole,
    });
  } else if (publicKey.value.trim() === '') {
    revoked = true;
    diagnostics.push({
      severity: 'error',
      code: 'DKIM_KEY_REVOKED',
      message: 'The key is revoked (p= is empty): signatures with this selector fail',
      rfc: 'RFC 6376 §3.6.1',
      fix: 'Leave it so if the key was retired on purpose; otherwise publish the public key in p=.',
      span: publicKey.span,
    });
  } else {
    const decoded = decodeBase64(publicKey.value);
    if (!decoded.ok) {
      diagnostics.push({
        severity: 'error',
        code: 'DKIM_PUBLIC_KEY_BASE64',
        message: `p= is not valid base64: ${decoded.error}`,
        requirement: 'MUST',
        rfc: 'RFC 6376 §3.6.1',
        fix: 'Copy the public key again; a key split across strings must be split inside quotes, not by extra characters.',
        span: publicKey.valueSpan,
      });
    } else if (knownKeyType) {
      publicKeyLength = decoded.bytes.length;
      diagnostics.push(...keyDiagnostics(knownKeyType, decoded.bytes, publicKey));
      const read = readDkimPublicKey(knownKeyType, decoded.bytes);
      if (read.ok) {
        keySize = read.bits;
        keyEncoding = read.encoding;
      }
    } else {
      publicKeyLength = decoded.bytes.length;
    }
  }

  const hashTag = byName.get('h');
  const hashAlgorithms = hashTag ? list(hashTag.value) : null;
  if (hashTag && hashAlgorithms) diagnostics.push(...hashDiagnostics(hashAlgorithms, hashTag));

  const serviceTag = byName.get('s');
  const serviceTypes = serviceTag ? list(serviceTag.value) : ['*'];
  if (serviceTag) {
    for (const service of serviceTypes.filter((entry) => !knownServices.has(entry))) {
      diagnostics.push({
        severity: 'info',
        code: 'DKIM_SERVICE_UNKNOWN',
        message: `Unknown service type '${service.slice(0, 40)}' is ignored`,
        rfc: 'RFC 6376 §3.6.1',
        span: serviceTag.valueSpan,
      });
    }
    if (!serviceTypes.includes('*') && !serviceTypes.includes('email')) {
      diagnostics.push({
        severity: 'warning',
        code: 'DKIM_SERVICE_NOT_EMAIL',
        message: `s=${serviceTag.value} does not include email or *: this key cannot verify email signatures`,
        rfc: serviceTypes.includes('tlsrpt') ? 'RFC 8460 §3' : 'RFC 6376 §3.6.1',
        fix: 'Use s=email (or leave s= out) for a key that signs mail.',
        span: serviceTag.valueSpan,
      });
    }
  }

  const flagTag = byName.get('t');
  const flags = flagTag ? list(flagTag.value) : [];
  if (flagTag) diagnostics.push(...flagDiagnostics(flags, flagTag));

  const notes = byName.get('n');
  if (notes) {
    diagnostics.push({
      severity: 'info',
      code: 'DKIM_NOTES',
      message: 'n= holds notes for administrators; verifiers ignore it',
      rfc: 'RFC 6376 §3.6.1',
      span: notes.span,
    });
  }
  if (byName.has('g')) {
    diagnostics.push({
      severity: 'info',
      code: 'DKIM_GRANULARITY_HISTORIC',
      message: 'g= (key granularity) was removed from DKIM and is ignored',
      rfc: 'RFC 6376 Appendix C.1',
      fix: 'Remove g=; it has no effect.',
      span: byName.get('g')!.span,
    });
  }
  for (const tag of tags.filter((entry) => !knownTags.has(entry.name))) {
    diagnostics.push({
      severity: 'info',
      code: 'DKIM_TAG_UNKNOWN',
      message: `Unknown tag ${tag.name}=: verifiers must ignore it`,
      requirement: 'MUST',
      rfc: 'RFC 6376 §3.2',
      span: tag.span,
    });
  }

  const otherErrors = diagnostics.some((d) => d.severity === 'error' && d.code !== 'DKIM_KEY_REVOKED');
  const parsed: DkimParsed = {
    status: otherErrors ? 'invalid' : revoked ? 'revoked' : 'valid',
    record: text.text,
    strings: text.strings,
    ownerName: text.ownerName,
    version: version?.value ?? null,
    keyType,
    hashAlgorithms,
    serviceTypes,
    flags,
    notes: notes?.value ?? null,
    keySize,
    keyEncoding,
    publicKeyBytes: publicKeyLength,
  };
  return { ...toValidationResult(diagnostics, parsed), tags: tagMap };
}

function keyDiagnostics(keyType: 'rsa' | 'ed25519', bytes: Uint8Array, tag: DkimTag): Diagnostic[] {
  const read = readDkimPublicKey(keyType, bytes);
  if (!read.ok) {
    return [
      {
        severity: 'error',
        code: read.code,
        message: read.message,
        requirement: 'MUST',
        rfc: keyType === 'ed25519' ? 'RFC 8463 §4.2' : 'RFC 6376 §3.6.1',
        ...(read.fix ? { fix: read.fix } : {}),
        span: tag.valueSpan,
      },
    ];
  }
  if (read.keyType === 'ed25519') {
    return [
      {
        severity: 'info',
        code: 'DKIM_ED25519_KEY',
        message:
          'Ed25519 key (32 bytes). Verifiers without RFC 8463 support ignore such signatures: sign with an RSA key too',
        rfc: 'RFC 8463 §4',
        span: tag.valueSpan,
      },
    ];
  }
  const out: Diagnostic[] = [];
  if (read.encoding === 'pkcs1') {
    out.push({
      severity: 'warning',
      code: 'DKIM_RSA_PKCS1',
      message:
        'p= is a bare RSAPublicKey (PKCS#1) rather than a SubjectPublicKeyInfo; some verifiers cannot read it',
      rfc: 'RFC 6376 §3.6.1',
      fix: "Publish the SubjectPublicKeyInfo form ('openssl rsa -pubout').",
      span: tag.valueSpan,
    });
  }
  if (read.bits < RSA_MINIMUM) {
    out.push({
      severity: 'error',
      code: 'DKIM_RSA_TOO_SHORT',
      message: `The RSA key has ${read.bits} bits: verifiers must not accept signatures made with keys under ${RSA_MINIMUM} bits`,
      requirement: 'MUST NOT',
      rfc: 'RFC 8301 §3.2',
      fix: `Generate a new key of ${RSA_RECOMMENDED} bits or more and publish it under a new selector.`,
      span: tag.valueSpan,
    });
  } else if (read.bits < RSA_RECOMMENDED) {
    out.push({
      severity: 'warning',
      code: 'DKIM_RSA_SHORT',
      message: `The RSA key has ${read.bits} bits; signers should use keys of at least ${RSA_RECOMMENDED} bits`,
      requirement: 'SHOULD',
      rfc: 'RFC 8301 §3.2',
      fix: `Rotate to a ${RSA_RECOMMENDED}-bit key under a new selector.`,
      span: tag.valueSpan,
    });
  } else if (read.bits > RSA_VERIFIER_MAXIMUM) {
    out.push({
      severity: 'warning',
      code: 'DKIM_RSA_LONG',
      message: `The RSA key has ${read.bits} bits; verifiers are only required to handle keys up to ${RSA_VERIFIER_MAXIMUM} bits`,
      requirement: 'MUST',
      rfc: 'RFC 8301 §3.2',
      fix: `Use a key of ${RSA_RECOMMENDED} to ${RSA_VERIFIER_MAXIMUM} bits.`,
      span: tag.valueSpan,
    });
  } else {
    out.push({
      severity: 'info',
      code: 'DKIM_RSA_KEY',
      message: `RSA key of ${read.bits} bits`,
      rfc: 'RFC 8301 §3.2',
      span: tag.valueSpan,
    });
  }
  return out;
}

function hashDiagnostics(hashes: string[], tag: DkimTag): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const hash of hashes.filter((entry) => !knownHashes.has(entry))) {
    out.push({
      severity: 'info',
      code: 'DKIM_HASH_UNKNOWN',
      message: `Unknown hash algorithm '${hash.slice(0, 40)}' in h= is ignored`,
      rfc: 'RFC 6376 §3.6.1',
      span: tag.valueSpan,
    });
  }
  if (hashes.includes('sha1')) {
    const only = !hashes.includes('sha256');
    out.push({
      severity: 'warning',
      code: only ? 'DKIM_HASH_SHA1_ONLY' : 'DKIM_HASH_SHA1',
      message: only
        ? 'h= allows only sha1, and verifiers must not accept rsa-sha1 signatures: no signature with this key can pass'
        : 'h= allows sha1, which signers must not use',
      requirement: 'MUST NOT',
      rfc: 'RFC 8301 §3.1',
      fix: 'Write h=sha256, or leave h= out.',
      span: tag.valueSpan,
    });
  } else if (!hashes.includes('sha256')) {
    out.push({
      severity: 'warning',
      code: 'DKIM_HASH_NONE_KNOWN',
      message: 'h= names no hash algorithm verifiers know: signatures with this key cannot pass',
      rfc: 'RFC 6376 §3.6.1',
      fix: 'Write h=sha256, or leave h= out.',
      span: tag.valueSpan,
    });
  }
  return out;
}

function flagDiagnostics(flags: string[], tag: DkimTag): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (flags.includes('y')) {
    out.push({
      severity: 'info',
      code: 'DKIM_TESTING',
      message:
        't=y: this domain is testing DKIM. Verifiers must not treat its messages differently from unsigned mail',
      requirement: 'MUST NOT',
      rfc: 'RFC 6376 §3.6.1',
      fix: 'Remove y from t= once signatures verify.',
      span: tag.valueSpan,
    });
  }
  if (flags.includes('s')) {
    out.push({
      severity: 'info',
      code: 'DKIM_STRICT_IDENTITY',
      message: "t=s: the domain of a signature's i= must equal its d= exactly; subdomains are not allowed",
      requirement: 'MUST',
      rfc: 'RFC 6376 §3.6.1',
      span: tag.valueSpan,
    });
  }
  for (const flag of flags.filter((entry) => !knownFlags.has(entry))) {
    out.push({
      severity: 'info',
      code: 'DKIM_FLAG_UNKNOWN',
      message: `Unknown flag '${flag.slice(0, 40)}' in t=: verifiers must ignore it`,
      requirement: 'MUST',
      rfc: 'RFC 6376 §3.6.1',
      span: tag.valueSpan,
    });
  }
  return out;
}
