import type { Diagnostic } from '../core/diagnostic.ts';
import { octets, SPF_VERSION } from './record.ts';

/** RFC 1035 §3.3.14: one character-string. */
export const TXT_STRING_MAX_OCTETS = 255;
/** RFC 7208 §3.4: name and text of all records of the type under this, and the answer fits UDP. */
export const SPF_ANSWER_GUIDELINE_OCTETS = 450;
export const DNS_UDP_MAX_OCTETS = 512;

/** Whether a TXT record is an SPF record: `v=spf1` (any case) then a space or the end (RFC 7208 §4.5). */
export function isSpfRecord(text: string): boolean {
  return SPF_VERSION.test(text);
}

/** A TXT record as the DNS returned it: its character-strings, or the joined text. */
export type TxtRecordInput = string | readonly string[];

function joined(record: TxtRecordInput): string {
  return typeof record === 'string' ? record : record.join('');
}

/**
 * Checks the size rules for the TXT records at one name (RFC 7208 §3.3, §3.4): each
 * character-string at most 255 octets; name plus the text of all records under 450 octets; the
 * whole answer within a 512-octet UDP message.
 */
export function checkTxtAnswerSize(name: string, records: readonly TxtRecordInput[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  let textOctets = 0;
  let rdataOctets = 0;
  for (const record of records) {
    const strings = typeof record === 'string' ? [record] : record;
    const long = strings.filter((s) => octets(s) > TXT_STRING_MAX_OCTETS);
    if (long.length > 0 && isSpfRecord(joined(record))) {
      out.push({
        severity: typeof record === 'string' ? 'info' : 'error',
        code: typeof record === 'string' ? 'SPF_STRING_SPLIT' : 'SPF_STRING_TOO_LONG',
        message:
          typeof record === 'string'
            ? `the record is ${octets(record)} octets: publish it as several quoted strings of at most 255 octets each, which receivers join without spaces`
            : `a character-string of the record is ${Math.max(...long.map(octets))} octets; the DNS allows at most 255`,
        rfc: 'RFC 7208 §3.3',
        fix: 'Split the record into "…" "…" strings of at most 255 characters.',
      });
    }
    for (const s of strings) {
      // a string over 255 octets is published as several
      const n = octets(s);
      const parts = Math.max(1, Math.ceil(n / TXT_STRING_MAX_OCTETS));
      textOctets += n;
      rdataOctets += n + parts;
    }
  }
  const nameOctets = octets(name.replace(/\.$/, ''));
  if (nameOctets + textOctets > SPF_ANSWER_GUIDELINE_OCTETS) {
    out.push({
      severity: 'warning',
      code: 'SPF_ANSWER_SIZE',
      message: `the name and the text of its ${records.length} TXT record${records.length === 1 ? '' : 's'} come to ${nameOctets + textOctets} octets, over the 450-octet guideline for answers that fit in one UDP packet`,
      requirement: 'SHOULD',
      rfc: 'RFC 7208 §3.4',
      fix: 'Shorten the record (ip4/ip6 networks instead of many terms, fewer includes) or move other TXT records away from this name.',
    });
  }
  // header 12, question (name + 2 octets length/root + 4), each answer: compressed name 2,
  // type/class/TTL/length 10, RDATA
  const message = 12 + nameOctets + 2 + 4 + records.length * 12 + rdataOctets;
  if (message > DNS_UDP_MAX_OCTETS) {
    out.push({
      severity: 'warning',
      code: 'SPF_ANSWER_OVER_512',
      message: `the TXT answer for ${name} is about ${message} octets, over 512: receivers need EDNS0 or TCP, and some will not get the record`,
      requirement: 'SHOULD',
      rfc: 'RFC 7208 §3.4',
      fix: 'Keep the SPF record and the other TXT records at this name small enough for 512 octets.',
    });
  }
  return out;
}

/** The SPF records among the TXT records at a name (RFC 7208 §4.5), with diagnostics. */
export interface SpfRecordSelection {
  /** The joined text of each record that starts with `v=spf1`. */
  records: string[];
  diagnostics: Diagnostic[];
}

/**
 * Picks the SPF records out of the TXT records at a name (RFC 7208 §4.5): those whose joined text
 * starts with `v=spf1` and a space or the end. None is result "none"; more than one is permerror.
 */
export function selectSpfRecords(name: string, txt: readonly TxtRecordInput[]): SpfRecordSelection {
  const texts = txt.map(joined);
  const records = texts.filter(isSpfRecord);
  const diagnostics: Diagnostic[] = [];
  if (records.length > 1) {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_MULTIPLE_RECORDS',
      message: `${name} has ${records.length} SPF records: receivers return permerror`,
      requirement: 'MUST NOT',
      rfc: 'RFC 7208 §3.2',
      fix: 'Merge them into one record that starts with v=spf1.',
    });
  }
  for (const text of texts) {
    if (isSpfRecord(text)) continue;
    if (/^v=spf1/i.test(text)) {
      diagnostics.push({
        severity: records.length === 0 ? 'error' : 'warning',
        code: 'SPF_VERSION_NOT_TERMINATED',
        message: `a TXT record at ${name} starts with '${text.slice(0, 10)}…' but no space follows 'v=spf1', so it is not an SPF record`,
        requirement: 'MUST',
        rfc: 'RFC 7208 §4.5',
        fix: 'Put a space after v=spf1 (strings of a TXT record are joined without spaces).',
      });
    } else if (/^\s*v\s*=\s*spf/i.test(text) && !/^v=spf2\.0/i.test(text)) {
      diagnostics.push({
        severity: records.length === 0 ? 'error' : 'warning',
        code: 'SPF_VERSION_MALFORMED',
        message: `a TXT record at ${name} looks like SPF but does not start with exactly 'v=spf1 '`,
        requirement: 'MUST',
        rfc: 'RFC 7208 §4.5',
        fix: "Start the record with 'v=spf1 '.",
      });
    }
  }
  if (records.length === 0 && diagnostics.length === 0) {
    diagnostics.push({
      severity: 'error',
      code: 'SPF_NO_RECORD',
      message: `${name} has no SPF record`,
      rfc: 'RFC 7208 §4.5',
      fix: 'Publish a TXT record such as "v=spf1 mx -all".',
    });
  }
  diagnostics.push(...checkTxtAnswerSize(name, txt));
  return { records, diagnostics };
}
