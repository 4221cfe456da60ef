import type { Outcome } from '../core/outcome.ts';
import { quotedTxtStrings, splitTxtStrings } from '../core/txt-strings.ts';
import type { Diagnostic } from '../core/diagnostic.ts';
import { encodeBase64, publicKeyBytes, readDkimPublicKey } from './key.ts';
import { validateDkimRecord } from './validate.ts';

export const dkimAlgorithms = ['rsa-sha256', 'rsa-sha1', 'ed25519-sha256'] as const;
export type DkimAlgorithm = (typeof dkimAlgorithms)[number];

export const dkimCanonicalizations = [
  'relaxed/relaxed',
  'simple/simple',
  'relaxed/simple',
  'simple/relaxed',
] as const;
export type DkimCanonicalization = (typeof dkimCanonicalizations)[number];

/** `email`, or `*` for all services (RFC 6376 §3.6.1 s=). */
export const dkimServiceTypes = ['email', '*'] as const;
export type DkimServiceType = (typeof dkimServiceTypes)[number];

/** t= flags: y (testing) and s (i= must not be a subdomain of d=). */
export const dkimFlags = ['y', 's'] as const;
export type DkimFlag = (typeof dkimFlags)[number];

/** The spec's generator defaults (part 1 §9). */
export const dkimGeneratorDefaults = {
  selector: 'default',
  algorithm: 'rsa-sha256',
  canonicalization: 'relaxed/relaxed',
  serviceType: 'email',
} as const satisfies {
  selector: string;
  algorithm: DkimAlgorithm;
  canonicalization: DkimCanonicalization;
  serviceType: DkimServiceType;
};

export const dkimRequiredMessage = 'Domain, selector, and public key are required';

export interface DkimGenerateInput {
  domain: string;
  selector: string;
  /** Base64 or PEM; an Ed25519 key in SubjectPublicKeyInfo form is unwrapped to its 32 raw bytes. */
  publicKey: string;
  algorithm?: DkimAlgorithm;
  canonicalization?: DkimCanonicalization;
  serviceType?: DkimServiceType;
  flags?: DkimFlag[];
  notes?: string;
}

/** What a signer should be configured with to match the record. */
export interface DkimSignerSettings {
  /** The signature's a= value. */
  a: DkimAlgorithm;
  /** The signature's c= value (header/body canonicalization, RFC 6376 §3.4). */
  c: DkimCanonicalization;
  d: string;
  s: string;
}

export interface DkimGenerateResult {
  /** The TXT data. */
  record: string;
  /** Where to publish it: `selector._domainkey.domain`. */
  dnsName: string;
  /** `record` cut into character-strings of at most 255 characters. */
  txtStrings: string[];
  /** A zone-file line publishing the record as those strings. */
  zoneFileLine: string;
  signer: DkimSignerSettings;
  warnings: string[];
  diagnostics: Diagnostic[];
}

export type DkimGenerateOutcome = Outcome<DkimGenerateResult>;

/** PEM armour of a private key (PKCS#1, PKCS#8, encrypted PKCS#8, OpenSSH, SEC 1). */
export const dkimPrivateKeyPattern = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
export const dkimPrivateKeyMessage =
  "This is a private key: keep it secret and never publish it. Paste the public key instead ('openssl pkey -pubout' prints it)";

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;

/** A domain or selector as written, without a trailing dot; `null` when it is not a host name. */
export function normaliseDkimName(value: string): string | null {
  const name = value.trim().replace(/\.$/, '').toLowerCase();
  if (name === '' || name.length > 253) return null;
  return name.split('.').every((label) => LABEL.test(label)) ? name : null;
}

/**
 * Encodes notes for n= (qp-section, RFC 6376 §3.6.1): printable ASCII stays, `=`, `;` and
 * anything else become `=XX` of their UTF-8 octets.
 */
export function encodeDkimNotes(notes: string): string {
  let out = '';
  for (const octet of new TextEncoder().encode(notes.trim())) {
    const printable = (octet >= 0x21 && octet <= 0x7e && octet !== 0x3d && octet !== 0x3b) || octet === 0x20;
    out += printable ? String.fromCharCode(octet) : `=${octet.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Builds the key record for a public key (RFC 6376 §3.6.1) and the signer settings that go with
 * it. rsa-sha256 and ed25519-sha256 records carry h=sha256, so that no verifier accepts a SHA-1
 * signature with the key (RFC 8301 §3.1); rsa-sha1 is generated only with a warning.
 */
export function generateDkimRecord(input: DkimGenerateInput): DkimGenerateOutcome {
  if (input.domain.trim() === '' || input.selector.trim() === '' || input.publicKey.trim() === '') {
    return { ok: false, error: dkimRequiredMessage };
  }
  const domain = normaliseDkimName(input.domain);
  if (!domain)
    return { ok: false, error: `'${input.domain.trim().slice(0, 80)}' is not a valid domain name` };
  const selector = normaliseDkimName(input.selector);
  if (!selector) {
    return {
      ok: false,
      error: `'${input.selector.trim().slice(0, 80)}' is not a valid selector: use letters, digits, hyphens and dots`,
    };
  }
  const algorithm = input.algorithm ?? dkimGeneratorDefaults.algorithm;
  const canonicalization = input.canonicalization ?? dkimGeneratorDefaults.canonicalization;
  const serviceType = input.serviceType ?? dkimGeneratorDefaults.serviceType;
  const keyType = algorithm === 'ed25519-sha256' ? 'ed25519' : 'rsa';

  // a private key pasted by mistake must not be turned into a record (nor, in the web form, sent)
  if (dkimPrivateKeyPattern.test(input.publicKey)) return { ok: false, error: dkimPrivateKeyMessage };
  if (/(^|;)\s*p\s*=/.test(input.publicKey)) {
    return {
      ok: false,
      error:
        'This is a key record, not a public key: paste only the value of its p= tag, or check the record with the validator',
    };
  }
  const bytes = publicKeyBytes(input.publicKey);
  if (!bytes.ok) return { ok: false, error: `The public key is not valid base64: ${bytes.error}` };
  const key = readDkimPublicKey(keyType, bytes.bytes);
  let keyBase64 = encodeBase64(bytes.bytes);
  if (!key.ok) {
    if (key.code === 'DKIM_ED25519_SPKI' && key.rawEd25519) keyBase64 = encodeBase64(key.rawEd25519);
    else return { ok: false, error: `${key.message}. ${key.fix ?? ''}`.trim() };
  }

  const tags = ['v=DKIM1', `k=${keyType}`];
  if (algorithm !== 'rsa-sha1') tags.push('h=sha256');
  if (serviceType === 'email') tags.push('s=email');
  const flags = dkimFlags.filter((flag) => input.flags?.includes(flag));
  if (flags.length > 0) tags.push(`t=${flags.join(':')}`);
  const notes = input.notes === undefined ? '' : encodeDkimNotes(input.notes);
  if (notes !== '') tags.push(`n=${notes}`);
  tags.push(`p=${keyBase64}`);
  const record = tags.join('; ');

  const check = validateDkimRecord(record);
  const firstError = check.errors[0];
  if (firstError !== undefined) return { ok: false, error: firstError };
  const diagnostics = check.diagnostics.filter((d) => d.severity !== 'info');
  if (algorithm === 'rsa-sha1') {
    diagnostics.unshift({
      severity: 'warning',
      code: 'DKIM_RSA_SHA1',
      message:
        'rsa-sha1 must not be used: signers must use rsa-sha256, and verifiers must not consider rsa-sha1 signatures valid',
      requirement: 'MUST NOT',
      rfc: 'RFC 8301 §3.1',
      fix: 'Choose rsa-sha256 (or ed25519-sha256 alongside it).',
    });
  }

  const dnsName = `${selector}._domainkey.${domain}`;
  const txtStrings = splitTxtStrings(record);
  return {
    ok: true,
    result: {
      record,
      dnsName,
      txtStrings,
      zoneFileLine: `${dnsName}. IN TXT ${quotedTxtStrings(record)}`,
      signer: { a: algorithm, c: canonicalization, d: domain, s: selector },
      warnings: diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message),
      diagnostics,
    },
  };
}
