/**
 * A small, strict DER reader (ITU-T X.690 §10): definite, minimal lengths only. Enough for the keys
 * and certificates the tools read (RFC 5280), pure so that the browser and the server read them
 * alike without a crypto library.
 */

export const DER_SEQUENCE = 0x30;
export const DER_SET = 0x31;
export const DER_INTEGER = 0x02;
export const DER_BIT_STRING = 0x03;
export const DER_OBJECT_IDENTIFIER = 0x06;
export const DER_UTC_TIME = 0x17;
export const DER_GENERALIZED_TIME = 0x18;
export const DER_OCTET_STRING = 0x04;
export const DER_BOOLEAN = 0x01;
/** `[0] EXPLICIT`, the version of a TBSCertificate (RFC 5280 §4.1). */
const CONTEXT_0 = 0xa0;
/** `[3] EXPLICIT`, the extensions of a TBSCertificate (RFC 5280 §4.1). */
const CONTEXT_3 = 0xa3;

export interface DerElement {
  tag: number;
  /** Offset of the tag octet. */
  offset: number;
  /** Offset of the first content octet. */
  start: number;
  /** Offset just past the last content octet. */
  end: number;
}

export type DerRead<T> = { ok: true; value: T } | { ok: false; error: string };

/** One element at `offset`, which must end at or before `limit`. Low-tag-number form only. */
export function readDerElement(bytes: Uint8Array, offset: number, limit: number): DerRead<DerElement> {
  const tag = bytes[offset];
  const first = bytes[offset + 1];
  if (tag === undefined || first === undefined || offset + 2 > limit) {
    return { ok: false, error: 'the DER structure is truncated' };
  }
  if ((tag & 0x1f) === 0x1f) return { ok: false, error: 'a DER tag uses the high-tag-number form' };
  let length = first;
  let start = offset + 2;
  if (first === 0x80) return { ok: false, error: 'indefinite lengths are not DER' };
  if (first > 0x80) {
    const count = first & 0x7f;
    if (count > 4) return { ok: false, error: 'a DER length is implausibly large' };
    length = 0;
    for (let i = 0; i < count; i++) {
      const octet = bytes[start + i];
      if (octet === undefined) return { ok: false, error: 'the DER structure is truncated' };
      length = length * 256 + octet;
    }
    if (length < 0x80 || (count > 1 && bytes[start] === 0)) {
      return { ok: false, error: 'a DER length is not in its shortest form' };
    }
    start += count;
  }
  const end = start + length;
  if (end > limit) return { ok: false, error: 'the DER structure is truncated' };
  return { ok: true, value: { tag, offset, start, end } };
}

/** An element of tag `tag` at `offset`, or an error naming `what` was expected. */
export function expectDerElement(
  bytes: Uint8Array,
  offset: number,
  limit: number,
  tag: number,
  what: string,
): DerRead<DerElement> {
  const element = readDerElement(bytes, offset, limit);
  if (!element.ok) return element;
  if (element.value.tag !== tag) return { ok: false, error: `expected ${what}` };
  return element;
}

/** Dotted text of an OBJECT IDENTIFIER's content octets. */
export function oidText(bytes: Uint8Array): string {
  const parts: number[] = [];
  let value = 0;
  for (const octet of bytes) {
    value = value * 128 + (octet & 0x7f);
    if ((octet & 0x80) === 0) {
      if (parts.length === 0) {
        const first = value < 80 ? Math.floor(value / 40) : 2;
        parts.push(first, value - first * 40);
      } else {
        parts.push(value);
      }
      value = 0;
    }
  }
  return parts.join('.');
}

export interface SubjectPublicKeyInfo {
  algorithm: string;
  /** The subjectPublicKey BIT STRING without its unused-bits octet. */
  publicKey: Uint8Array;
}

/** Reads a SubjectPublicKeyInfo that spans all of `bytes`. */
export function readSubjectPublicKeyInfo(bytes: Uint8Array): DerRead<SubjectPublicKeyInfo> {
  const outer = expectDerElement(bytes, 0, bytes.length, DER_SEQUENCE, 'a SEQUENCE');
  if (!outer.ok) return outer;
  if (outer.value.end !== bytes.length) return { ok: false, error: 'extra bytes follow the key' };
  const algorithm = expectDerElement(
    bytes,
    outer.value.start,
    outer.value.end,
    DER_SEQUENCE,
    'an AlgorithmIdentifier',
  );
  if (!algorithm.ok) return algorithm;
  const oid = expectDerElement(
    bytes,
    algorithm.value.start,
    algorithm.value.end,
    DER_OBJECT_IDENTIFIER,
    'an algorithm OID',
  );
  if (!oid.ok) return oid;
  const key = expectDerElement(bytes, algorithm.value.end, outer.value.end, DER_BIT_STRING, 'a BIT STRING');
  if (!key.ok) return key;
  if (key.value.end !== outer.value.end) return { ok: false, error: 'extra fields follow the public key' };
  if (key.value.start >= key.value.end || bytes[key.value.start] !== 0) {
    return { ok: false, error: 'the public key BIT STRING must have 0 unused bits' };
  }
  return {
    ok: true,
    value: {
      algorithm: oidText(bytes.subarray(oid.value.start, oid.value.end)),
      publicKey: bytes.subarray(key.value.start + 1, key.value.end),
    },
  };
}

/** The fields of an X.509 certificate (RFC 5280 §4.1) the tools use, as DER slices of the input. */
export interface CertificateParts {
  /** The whole Certificate (it spans all of the input). */
  certificate: Uint8Array;
  issuer: Uint8Array;
  subject: Uint8Array;
  /** The Validity SEQUENCE's two times, as written (UTCTime or GeneralizedTime). */
  notBefore: DerElement & { bytes: Uint8Array };
  notAfter: DerElement & { bytes: Uint8Array };
  /** The SubjectPublicKeyInfo, tag and length included: what a TLSA selector 1 covers (RFC 6698 §2.1.2). */
  subjectPublicKeyInfo: Uint8Array;
  /** The Extensions SEQUENCE (RFC 5280 §4.1.2.9), tag and length included; null in a v1 certificate. */
  extensions: Uint8Array | null;
}

/**
 * Reads Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue } spanning all
 * of `bytes`, and in tbsCertificate the fields up to subjectPublicKeyInfo (RFC 5280 §4.1).
 */
export function readCertificate(bytes: Uint8Array): DerRead<CertificateParts> {
  const outer = expectDerElement(bytes, 0, bytes.length, DER_SEQUENCE, 'a Certificate SEQUENCE');
  if (!outer.ok) return outer;
  if (outer.value.end !== bytes.length) return { ok: false, error: 'extra bytes follow the certificate' };
  const tbs = expectDerElement(bytes, outer.value.start, outer.value.end, DER_SEQUENCE, 'a tbsCertificate');
  if (!tbs.ok) return tbs;
  const algorithm = expectDerElement(
    bytes,
    tbs.value.end,
    outer.value.end,
    DER_SEQUENCE,
    'a signatureAlgorithm',
  );
  if (!algorithm.ok) return algorithm;
  const signature = expectDerElement(
    bytes,
    algorithm.value.end,
    outer.value.end,
    DER_BIT_STRING,
    'a signatureValue',
  );
  if (!signature.ok) return signature;
  if (signature.value.end !== outer.value.end)
    return { ok: false, error: 'extra fields follow the signature' };

  const limit = tbs.value.end;
  let at = tbs.value.start;
  const version = readDerElement(bytes, at, limit);
  if (!version.ok) return version;
  if (version.value.tag === CONTEXT_0) at = version.value.end;
  const fields: DerElement[] = [];
  const expected: [number, string][] = [
    [DER_INTEGER, 'a serialNumber INTEGER'],
    [DER_SEQUENCE, 'a signature AlgorithmIdentifier'],
    [DER_SEQUENCE, 'an issuer Name'],
    [DER_SEQUENCE, 'a Validity SEQUENCE'],
    [DER_SEQUENCE, 'a subject Name'],
    [DER_SEQUENCE, 'a subjectPublicKeyInfo'],
  ];
  for (const [tag, what] of expected) {
    const field = expectDerElement(bytes, at, limit, tag, what);
    if (!field.ok) return field;
    fields.push(field.value);
    at = field.value.end;
  }
  const [, , issuer, validity, subject, spki] = fields as [
    DerElement,
    DerElement,
    DerElement,
    DerElement,
    DerElement,
    DerElement,
  ];
  const times: (DerElement & { bytes: Uint8Array })[] = [];
  let timeAt = validity.start;
  for (const what of ['notBefore', 'notAfter']) {
    const time = readDerElement(bytes, timeAt, validity.end);
    if (!time.ok) return time;
    if (time.value.tag !== DER_UTC_TIME && time.value.tag !== DER_GENERALIZED_TIME)
      return { ok: false, error: `expected a ${what} time` };
    times.push({ ...time.value, bytes: bytes.subarray(time.value.start, time.value.end) });
    timeAt = time.value.end;
  }
  const slice = (element: DerElement) => bytes.subarray(element.offset, element.end);
  // issuerUniqueID [1] and subjectUniqueID [2] may come first (RFC 5280 §4.1.2.8)
  let extensions: Uint8Array | null = null;
  while (at < limit) {
    const field = readDerElement(bytes, at, limit);
    if (!field.ok) return field;
    if (field.value.tag === CONTEXT_3) {
      const inner = expectDerElement(
        bytes,
        field.value.start,
        field.value.end,
        DER_SEQUENCE,
        'an Extensions SEQUENCE',
      );
      if (!inner.ok) return inner;
      extensions = slice(inner.value);
    }
    at = field.value.end;
  }
  return {
    ok: true,
    value: {
      certificate: bytes,
      issuer: slice(issuer),
      subject: slice(subject),
      notBefore: times[0]!,
      notAfter: times[1]!,
      subjectPublicKeyInfo: slice(spki),
      extensions,
    },
  };
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** RFC 5280 §4.1.2.5: UTCTime YYMMDDHHMMSSZ (years 50-99 are 19xx) or GeneralizedTime YYYYMMDDHHMMSSZ. */
export function derTimeToIso(element: { tag: number; bytes: Uint8Array }): string | undefined {
  const text = decoder.decode(element.bytes);
  const match =
    element.tag === DER_UTC_TIME
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match as unknown as [string, string, string, string, string, string, string];
  const year = element.tag === DER_UTC_TIME ? (Number(y) >= 50 ? 1900 : 2000) + Number(y) : Number(y);
  const date = new Date(Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

// RFC 4514 §3 short names of the attributes certificates carry most
const attributeNames: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '0.9.2342.19200300.100.1.25': 'DC',
};

/** Each attribute of a Name (RFC 5280 §4.1.2.4) in the order written: its type OID and value text. */
export function nameAttributes(name: Uint8Array): { type: string; value: string }[] {
  const outer = expectDerElement(name, 0, name.length, DER_SEQUENCE, 'a Name');
  if (!outer.ok) return [];
  const attributes: { type: string; value: string }[] = [];
  let at = outer.value.start;
  while (at < outer.value.end) {
    const set = expectDerElement(name, at, outer.value.end, DER_SET, 'a RelativeDistinguishedName');
    if (!set.ok) break;
    let inner = set.value.start;
    while (inner < set.value.end) {
      const pair = expectDerElement(name, inner, set.value.end, DER_SEQUENCE, 'an AttributeTypeAndValue');
      if (!pair.ok) break;
      const oid = expectDerElement(name, pair.value.start, pair.value.end, DER_OBJECT_IDENTIFIER, 'an OID');
      if (!oid.ok) break;
      const value = readDerElement(name, oid.value.end, pair.value.end);
      if (!value.ok) break;
      attributes.push({
        type: oidText(name.subarray(oid.value.start, oid.value.end)),
        value: decoder.decode(name.subarray(value.value.start, value.value.end)),
      });
      inner = pair.value.end;
    }
    at = set.value.end;
  }
  return attributes;
}

/** The commonName attribute type (X.520, RFC 5280 Appendix A.1). */
export const OID_COMMON_NAME = '2.5.4.3';

/** A Name (RFC 5280 §4.1.2.4) as RFC 4514-style text, most significant attribute first as written. */
export function nameToText(name: Uint8Array): string {
  return nameAttributes(name)
    .map(({ type, value }) => `${attributeNames[type] ?? type}=${value}`)
    .join(', ');
}

const OID_SUBJECT_ALT_NAME = '2.5.29.17';

/** One GeneralName of a subjectAltName (RFC 5280 §4.2.1.6). */
export type GeneralName =
  | { kind: 'dns' | 'email' | 'uri'; value: string }
  | { kind: 'ip'; value: string }
  | { kind: 'other'; typeId: string; value: string | null }
  | { kind: 'unsupported'; tag: number };

function ipText(bytes: Uint8Array): string {
  if (bytes.length === 4) return Array.from(bytes).join('.');
  const groups: string[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

// otherName ::= SEQUENCE { type-id OID, value [0] EXPLICIT ANY } (RFC 5280 §4.2.1.6); the values read are strings
function otherName(bytes: Uint8Array, element: DerElement): GeneralName {
  const oid = expectDerElement(bytes, element.start, element.end, DER_OBJECT_IDENTIFIER, 'a type-id');
  if (!oid.ok) return { kind: 'unsupported', tag: element.tag };
  const typeId = oidText(bytes.subarray(oid.value.start, oid.value.end));
  const wrapper = expectDerElement(bytes, oid.value.end, element.end, CONTEXT_0, 'an otherName value');
  if (!wrapper.ok) return { kind: 'other', typeId, value: null };
  const value = readDerElement(bytes, wrapper.value.start, wrapper.value.end);
  if (!value.ok) return { kind: 'other', typeId, value: null };
  return { kind: 'other', typeId, value: decoder.decode(bytes.subarray(value.value.start, value.value.end)) };
}

/**
 * The subjectAltName GeneralNames (RFC 5280 §4.2.1.6) of an Extensions SEQUENCE as `readCertificate`
 * gives it; [] when the certificate has none.
 */
export function readSubjectAltNames(extensions: Uint8Array | null): DerRead<GeneralName[]> {
  if (extensions === null) return { ok: true, value: [] };
  const outer = expectDerElement(extensions, 0, extensions.length, DER_SEQUENCE, 'an Extensions SEQUENCE');
  if (!outer.ok) return outer;
  for (let at = outer.value.start; at < outer.value.end;) {
    const extension = expectDerElement(extensions, at, outer.value.end, DER_SEQUENCE, 'an Extension');
    if (!extension.ok) return extension;
    at = extension.value.end;
    const oid = expectDerElement(
      extensions,
      extension.value.start,
      extension.value.end,
      DER_OBJECT_IDENTIFIER,
      'an extnID',
    );
    if (!oid.ok) return oid;
    if (oidText(extensions.subarray(oid.value.start, oid.value.end)) !== OID_SUBJECT_ALT_NAME) continue;
    let valueAt = oid.value.end;
    const critical = readDerElement(extensions, valueAt, extension.value.end);
    if (critical.ok && critical.value.tag === DER_BOOLEAN) valueAt = critical.value.end;
    const octets = expectDerElement(
      extensions,
      valueAt,
      extension.value.end,
      DER_OCTET_STRING,
      'an extnValue',
    );
    if (!octets.ok) return octets;
    const names = expectDerElement(
      extensions,
      octets.value.start,
      octets.value.end,
      DER_SEQUENCE,
      'GeneralNames',
    );
    if (!names.ok) return names;
    const result: GeneralName[] = [];
    for (let nameAt = names.value.start; nameAt < names.value.end;) {
      const name = readDerElement(extensions, nameAt, names.value.end);
      if (!name.ok) return name;
      nameAt = name.value.end;
      const content = extensions.subarray(name.value.start, name.value.end);
      switch (name.value.tag) {
        case CONTEXT_0:
          result.push(otherName(extensions, name.value));
          break;
        case 0x81:
          result.push({ kind: 'email', value: decoder.decode(content) });
          break;
        case 0x82:
          result.push({ kind: 'dns', value: decoder.decode(content) });
          break;
        case 0x86:
          result.push({ kind: 'uri', value: decoder.decode(content) });
          break;
        case 0x87:
          result.push({ kind: 'ip', value: ipText(content) });
          break;
        default:
          result.push({ kind: 'unsupported', tag: name.value.tag });
      }
    }
    return { ok: true, value: result };
  }
  return { ok: true, value: [] };
}
