import { decodeBase64 } from '../core/base64.ts';
import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { parseDnsName, type DnsName } from '../core/dns-name.ts';
import { tokenizeZoneText, type ZoneToken } from '../core/zone-tokenizer.ts';
import { findDnssecAlgorithmByMnemonic } from '../dnssec/algorithms.ts';

/** The fields of a DNSKEY record as written, with where each one is in the input. */
export interface DnskeyPresentation {
  /** `null` when no owner was written or it could not be used (see the diagnostics). */
  ownerName: DnsName | null;
  ttl: number | null;
  flags: number;
  protocol: number;
  algorithm: number;
  publicKey: Uint8Array;
  spans: {
    owner?: Span;
    ttl?: Span;
    flags: Span;
    protocol: Span;
    algorithm: Span;
    publicKey: Span;
  };
}

export interface DnskeyParseResult {
  /** Present when flags, protocol, algorithm and public key could all be read. */
  record?: DnskeyPresentation;
  diagnostics: Diagnostic[];
}

const expectedFormat = "'flags protocol algorithm public-key'";
const example = "'example.com. 3600 IN DNSKEY 257 3 13 <base64 public key>'";

/** RFC 2181 §8: a TTL is an unsigned 31-bit number of seconds. */
const maxTtl = 2 ** 31 - 1;

const classes = new Set(['IN', 'CH', 'CHAOS', 'HS', 'HESIOD', 'CS']);

// Types someone may paste by mistake; their RDATA is not a DNSKEY's.
const otherTypes = new Set([
  'A',
  'AAAA',
  'CAA',
  'CDNSKEY',
  'CDS',
  'CNAME',
  'DS',
  'KEY',
  'MX',
  'NS',
  'NSEC',
  'NSEC3',
  'NSEC3PARAM',
  'PTR',
  'RRSIG',
  'SOA',
  'SRV',
  'SSHFP',
  'TLSA',
  'TXT',
  'ZONEMD',
]);

/**
 * Reads a pasted DNSKEY record: bare RDATA (`257 3 13 base64…`) or a zone-file line
 * `[owner] [TTL] [class] DNSKEY flags protocol algorithm public-key` with TTL and class in either
 * order (RFC 1035 §5.1), on one line or wrapped in `( … )` with `;` comments. The public key may
 * be split by whitespace (RFC 4034 §2.2). Only syntax is checked here; meaning is checked by
 * `validateDnskey`.
 */
const dnskeyRequired: Diagnostic = {
  severity: 'error',
  code: 'DNSKEY_REQUIRED',
  message: 'DNSKEY record is required',
  rfc: 'RFC 4034 §2.2',
  fix: "Paste a DNSKEY record: flags, protocol, algorithm and the base64 key, e.g. the output of 'dig +short DNSKEY example.com'.",
};

export function parseDnskey(text: string): DnskeyParseResult {
  const diagnostics: Diagnostic[] = [];
  if (text.trim() === '') {
    return {
      diagnostics: [dnskeyRequired],
    };
  }

  const tokenized = tokenizeZoneText(text);
  if (!tokenized.ok) {
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_SYNTAX',
      message: `Zone-file syntax: ${tokenized.error}`,
      rfc: 'RFC 1035 §5.1',
      fix: 'Balance the parentheses and quotes, or paste the record on one line.',
      span: tokenized.span,
    });
    return { diagnostics };
  }
  const entries = tokenized.entries;
  const [entry, second] = entries;
  if (!entry) {
    return {
      diagnostics: [dnskeyRequired],
    };
  }
  if (second) {
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_MULTIPLE_RECORDS',
      message: `Found ${entries.length} records; paste one DNSKEY record at a time`,
      fix: 'Keep only the DNSKEY line you want to check (wrap a long key in ( ) to span lines).',
      span: second.span,
    });
    return { diagnostics };
  }

  const tokens = entry.tokens;
  const typeIndex = tokens.slice(0, 4).findIndex((t) => !t.quoted && isDnskeyType(t.text));
  let rdata: ZoneToken[];
  let ownerToken: ZoneToken | undefined;
  let ttlToken: ZoneToken | undefined;
  let classToken: ZoneToken | undefined;

  if (typeIndex < 0) {
    const first = tokens[0];
    if (first && !/^\d+$/.test(first.text)) {
      const other = tokens.slice(0, 4).find((t) => otherTypes.has(t.text.toUpperCase()));
      if (other) {
        diagnostics.push({
          severity: 'error',
          code: 'DNSKEY_WRONG_TYPE',
          message: `This is a ${other.text.toUpperCase()} record, not a DNSKEY record`,
          fix: `Paste the DNSKEY record of the zone, e.g. ${example}.`,
          span: other.span,
        });
      } else {
        diagnostics.push({
          severity: 'error',
          code: 'DNSKEY_FORMAT',
          message: `Not a DNSKEY record: expected ${expectedFormat} or a zone-file line such as ${example}`,
          rfc: 'RFC 4034 §2.2',
          fix: `Paste the record as your signer or 'dig DNSKEY' prints it: ${example}.`,
          span: first.span,
        });
      }
      return { diagnostics };
    }
    rdata = tokens;
  } else {
    const prefix = tokens.slice(0, typeIndex);
    rdata = tokens.slice(typeIndex + 1);
    let rest = prefix;
    const head = prefix[0];
    if (head && (prefix.length === 3 || (!isTtl(head.text) && !isClass(head.text)))) {
      ownerToken = head;
      rest = prefix.slice(1);
    }
    for (const t of rest) {
      if (!ttlToken && isTtl(t.text)) ttlToken = t;
      else if (!classToken && isClass(t.text)) classToken = t;
      else {
        diagnostics.push({
          severity: 'error',
          code: 'DNSKEY_FORMAT',
          message: `Unexpected '${t.text}' before DNSKEY: a zone-file line is [owner] [TTL] [class] DNSKEY ${expectedFormat.slice(1, -1)}`,
          rfc: 'RFC 1035 §5.1',
          fix: `Write the line as ${example}.`,
          span: t.span,
        });
        return { diagnostics };
      }
    }
  }

  let ownerName: DnsName | null = null;
  if (ownerToken) {
    const owner = parseDnsName(ownerToken.text);
    if (owner.ok) ownerName = owner.name;
    else if (ownerToken.text === '@') {
      diagnostics.push({
        severity: 'info',
        code: 'DNSKEY_OWNER_ORIGIN',
        message: "The owner '@' stands for the zone's $ORIGIN, which a pasted record does not carry",
        fix: "Replace '@' with the zone name, e.g. 'example.com.'.",
        span: ownerToken.span,
      });
    } else {
      diagnostics.push({
        severity: 'error',
        code: 'DNSKEY_OWNER_INVALID',
        message: `Owner name '${ownerToken.text}' is not a valid domain name: ${owner.error}`,
        requirement: 'MUST',
        rfc: 'RFC 1035 §2.3.4',
        fix: 'Write the owner as the zone name, e.g. example.com. (labels of at most 63 octets, 255 in all).',
        span: ownerToken.span,
      });
    }
  }

  let ttl: number | null = null;
  if (ttlToken) {
    ttl = ttlSeconds(ttlToken.text);
    if (ttl > maxTtl) {
      diagnostics.push({
        severity: 'error',
        code: 'DNSKEY_TTL_INVALID',
        message: `TTL ${ttlToken.text} is more than ${maxTtl} seconds, the largest TTL DNS allows`,
        requirement: 'MUST',
        rfc: 'RFC 2181 §8',
        fix: 'Use a TTL such as 3600 (one hour) or 86400 (one day).',
        span: ttlToken.span,
      });
      ttl = null;
    }
  }

  if (classToken && classToken.text.toUpperCase() !== 'IN') {
    diagnostics.push({
      severity: 'warning',
      code: 'DNSKEY_CLASS_NOT_IN',
      message: `Class ${classToken.text.toUpperCase()}: DNSSEC on the Internet uses class IN`,
      rfc: 'RFC 1035 §3.2.4',
      fix: 'Write IN as the class, or leave the class out.',
      span: classToken.span,
    });
  }

  const [flagsToken, protocolToken, algorithmToken, ...keyTokens] = rdata;
  if (flagsToken?.text === '\\#') {
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_GENERIC_RDATA',
      message: 'The RFC 3597 generic form (\\# length hex) is not supported here',
      fix: `Paste the DNSKEY in its usual form, ${expectedFormat}.`,
      span: flagsToken.span,
    });
    return { diagnostics };
  }
  const firstKey = keyTokens[0];
  const lastKey = keyTokens[keyTokens.length - 1];
  if (!flagsToken || !protocolToken || !algorithmToken || !firstKey || !lastKey) {
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_FIELD_COUNT',
      message: `A DNSKEY has 4 fields, ${expectedFormat}; found ${rdata.length}${rdata.length ? `: ${rdata.map((t) => t.text).join(' ')}` : ''}`,
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.2',
      fix: 'Paste the whole record, e.g. 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==.',
      span: entry.span,
    });
    return { diagnostics };
  }

  let readable = true;
  const flags = decimal(flagsToken.text, 0xffff);
  if (flags === null) {
    readable = false;
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_FLAGS_INVALID',
      message: `Flags must be a decimal number from 0 to 65535, normally 256 (ZSK) or 257 (KSK); found '${flagsToken.text}'`,
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.2',
      fix: 'Write the flags in decimal: 257 for a key-signing key, 256 for a zone-signing key.',
      span: flagsToken.span,
    });
  }

  const protocol = decimal(protocolToken.text, 0xff);
  if (protocol === null) {
    readable = false;
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_PROTOCOL_NOT_3',
      message: `Protocol must be 3; found '${protocolToken.text}', which is not a number from 0 to 255`,
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.1.2',
      fix: 'Write 3 as the second field.',
      span: protocolToken.span,
    });
  }

  const algorithm =
    decimal(algorithmToken.text, 0xff) ?? findDnssecAlgorithmByMnemonic(algorithmToken.text)?.number;
  if (algorithm === undefined) {
    readable = false;
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_ALGORITHM_INVALID',
      message: `Algorithm must be a number from 0 to 255 or a mnemonic such as ECDSAP256SHA256; found '${algorithmToken.text}'`,
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.2',
      fix: 'Write the algorithm number, e.g. 13 (ECDSAP256SHA256) or 8 (RSASHA256).',
      span: algorithmToken.span,
    });
  }

  const keySpan = { start: firstKey.span.start, end: lastKey.span.end };
  const keyText = keyTokens.map((t) => t.text).join('');
  const key = decodeBase64(keyText);
  if (!key.ok) {
    readable = false;
    diagnostics.push({
      severity: 'error',
      code: 'DNSKEY_KEY_BASE64',
      message: `The public key is not valid base64: ${key.error}`,
      requirement: 'MUST',
      rfc: 'RFC 4034 §2.2',
      fix: 'Copy the public key again in full; only A-Z, a-z, 0-9, +, / and trailing = padding belong in it.',
      span: keySpan,
    });
  }

  if (!readable || flags === null || protocol === null || algorithm === undefined || !key.ok) {
    return { diagnostics };
  }
  const spans: DnskeyPresentation['spans'] = {
    flags: flagsToken.span,
    protocol: protocolToken.span,
    algorithm: algorithmToken.span,
    publicKey: keySpan,
  };
  if (ownerToken) spans.owner = ownerToken.span;
  if (ttlToken) spans.ttl = ttlToken.span;
  return {
    record: { ownerName, ttl, flags, protocol, algorithm, publicKey: key.bytes, spans },
    diagnostics,
  };
}

function isDnskeyType(text: string): boolean {
  const upper = text.toUpperCase();
  return upper === 'DNSKEY' || upper === 'TYPE48';
}

function isClass(text: string): boolean {
  const upper = text.toUpperCase();
  return classes.has(upper) || /^CLASS\d+$/.test(upper);
}

// Plain seconds (RFC 1035) or the unit form zone files also use, e.g. 1h30m.
function isTtl(text: string): boolean {
  return /^\d+$/.test(text) || /^(\d+[wdhms])+$/i.test(text);
}

const unitSeconds: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };

function ttlSeconds(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([wdhms])/gi)) {
    total += Number(amount) * (unitSeconds[(unit ?? 's').toLowerCase()] ?? 1);
  }
  return total;
}

function decimal(text: string, max: number): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value <= max ? value : null;
}
