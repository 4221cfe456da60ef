import { decodeBase64 } from '../core/base64.ts';
import type { Outcome } from '../core/outcome.ts';
import type { DnsDnskeyRecord, DnsDsRecord } from '../core/resolver.ts';
import { tokenizeZoneText, type ZoneToken } from '../core/zone-tokenizer.ts';

/** The keys a validation starts from: DS or DNSKEY records for the root, with where they came from. */
export interface TrustAnchors {
  source: string;
  ds: DnsDsRecord[];
  dnskey: DnsDnskeyRecord[];
}

/**
 * IANA's root zone trust anchors: KSK-2017 (key tag 20326, valid from 2017-02-02) and KSK-2024
 * (key tag 38696, valid from 2024-07-18), both RSA/SHA-256 with SHA-256 digests.
 * Source: https://data.iana.org/root-anchors/root-anchors.xml (RFC 9718 format), digests compared on
 * 2026-11-25 with independent copies of that file (resolver configurations and a live DNSSEC analysis
 * of the root's DS set, which list the same two digests).
 */
export const ianaRootTrustAnchors: TrustAnchors = {
  source: 'IANA root-anchors.xml (https://data.iana.org/root-anchors/root-anchors.xml)',
  ds: [
    {
      type: 'DS',
      name: '.',
      ttl: 172800,
      keyTag: 20326,
      algorithm: 8,
      digestType: 2,
      digest: 'e06d44b80b8f1d39a95c0b0d7c65d08458e880409bbc683457104237c7f8ec8d',
    },
    {
      type: 'DS',
      name: '.',
      ttl: 172800,
      keyTag: 38696,
      algorithm: 8,
      digestType: 2,
      digest: '683d2d0acb8c9b712a1948b27f741219298d0a450d612c483af444a4c0fb2b16',
    },
  ],
  dnskey: [],
};

/** Digest lengths in octets of the DS digest types (RFC 4034 §5.1.4, RFC 4509 §2.2, RFC 6605 §2). */
const digestOctets: Record<number, number> = { 1: 20, 2: 32, 4: 48 };

const classes = new Set(['IN']);

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 0x0a) line++;
  return line;
}

function integer(token: ZoneToken | undefined, max: number): number | undefined {
  if (!token || !/^\d{1,5}$/.test(token.text)) return undefined;
  const value = Number(token.text);
  return value <= max ? value : undefined;
}

type Parsed<T> = { ok: true; record: T } | { ok: false; error: string };

function parseDs(fields: ZoneToken[], ttl: number): Parsed<DnsDsRecord> {
  const [tag, algorithm, digestType, ...digestParts] = fields;
  const keyTag = integer(tag, 0xffff);
  const alg = integer(algorithm, 0xff);
  const type = integer(digestType, 0xff);
  if (keyTag === undefined || alg === undefined || type === undefined) {
    return {
      ok: false,
      error:
        'a DS record is key tag (0-65535), algorithm (0-255), digest type (0-255), then the digest in hex',
    };
  }
  const digest = digestParts
    .map((t) => t.text)
    .join('')
    .toLowerCase();
  if (!/^(?:[0-9a-f]{2})+$/.test(digest)) return { ok: false, error: 'the DS digest must be hexadecimal' };
  const expected = digestOctets[type];
  if (expected !== undefined && digest.length !== expected * 2) {
    return {
      ok: false,
      error: `a digest of type ${type} has ${expected} octets (${expected * 2} hex digits); this one has ${digest.length / 2}`,
    };
  }
  return {
    ok: true,
    record: { type: 'DS', name: '.', ttl, keyTag, algorithm: alg, digestType: type, digest },
  };
}

function parseDnskey(fields: ZoneToken[], ttl: number): Parsed<DnsDnskeyRecord> {
  const [flagsToken, protocolToken, algorithmToken, ...keyParts] = fields;
  const flags = integer(flagsToken, 0xffff);
  const protocol = integer(protocolToken, 0xff);
  const algorithm = integer(algorithmToken, 0xff);
  if (flags === undefined || protocol === undefined || algorithm === undefined) {
    return {
      ok: false,
      error: 'a DNSKEY record is flags (0-65535), protocol (3), algorithm (0-255), then the key in base64',
    };
  }
  if (protocol !== 3)
    return { ok: false, error: `the DNSKEY protocol must be 3 (RFC 4034 §2.1.2); this one is ${protocol}` };
  const key = keyParts.map((t) => t.text).join('');
  const decoded = decodeBase64(key);
  if (!decoded.ok) return { ok: false, error: `the DNSKEY public key is not base64: ${decoded.error}` };
  return { ok: true, record: { type: 'DNSKEY', name: '.', ttl, flags, protocol, algorithm, key } };
}

/**
 * Reads trust anchors for the root in zone-file presentation format, as `dnssec-dsfromkey` writes
 * them and IANA publishes them: `. [TTL] [IN] DS keytag algorithm type digest` or
 * `. [TTL] [IN] DNSKEY flags 3 algorithm key`. `;` and `#` start comments; blank lines are skipped.
 */
export function parseTrustAnchors(text: string, source: string): Outcome<TrustAnchors> {
  // '#' comments become blanks of the same length, so offsets (and line numbers) stay those of `text`
  const withoutHashComments = text.replace(/#[^\n]*/g, (comment) => ' '.repeat(comment.length));
  const tokenized = tokenizeZoneText(withoutHashComments);
  if (!tokenized.ok)
    return { ok: false, error: `line ${lineOf(text, tokenized.span.start)}: ${tokenized.error}` };
  const anchors: TrustAnchors = { source, ds: [], dnskey: [] };
  for (const entry of tokenized.entries) {
    const line = lineOf(text, entry.span.start);
    const [owner, ...rest] = entry.tokens;
    if (owner?.text !== '.') {
      return {
        ok: false,
        error: `line ${line}: trust anchors are for the root, so the owner must be '.'; found '${owner?.text ?? ''}'`,
      };
    }
    let ttl = 172800;
    let at = 0;
    // TTL and class may come in either order (RFC 1035 §5.1)
    for (let i = 0; i < 2; i++) {
      const token = rest[at];
      if (token && /^\d+$/.test(token.text)) {
        ttl = Number(token.text);
        at++;
      } else if (token && classes.has(token.text.toUpperCase())) {
        at++;
      }
    }
    const type = rest[at]?.text.toUpperCase();
    const fields = rest.slice(at + 1);
    const parsed =
      type === 'DS' ? parseDs(fields, ttl) : type === 'DNSKEY' ? parseDnskey(fields, ttl) : undefined;
    if (!parsed) {
      return {
        ok: false,
        error: `line ${line}: expected a DS or DNSKEY record; found type '${rest[at]?.text ?? ''}'`,
      };
    }
    if (!parsed.ok) return { ok: false, error: `line ${line}: ${parsed.error}` };
    if (parsed.record.type === 'DS') anchors.ds.push(parsed.record);
    else anchors.dnskey.push(parsed.record);
  }
  if (anchors.ds.length === 0 && anchors.dnskey.length === 0) {
    return { ok: false, error: 'no DS or DNSKEY record for the root was found' };
  }
  return { ok: true, result: anchors };
}
