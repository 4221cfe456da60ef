import { toValidationResult, type Diagnostic, type Span, type ValidationResult } from '../core/diagnostic.ts';
import { parseDmarcRecord, type DmarcRawTag } from './parse.ts';
import { cite, defaultTagValues, dmarcTagChecks } from './tag-checks.ts';
import {
  dmarcRemovedTagNotes,
  dmarcTagDefinitions,
  isDefinedIn,
  isDmarcTagName,
  policyStrength,
  testModePolicy,
  type DmarcAlignment,
  type DmarcFailureOption,
  type DmarcPolicy,
  type DmarcPsd,
  type DmarcRemovedTag,
  type DmarcSpec,
} from './tags.ts';
import type { DmarcUri } from './uri.ts';

/**
 * How a record reads under one specification (the verdicts of the shared conformance data):
 * `valid`, `valid-warn` (valid, with a warning), `invalid` (a syntax or value error),
 * `invalid-p` (the p tag is invalid), `invalid-uri` (a reporting URI is invalid), `no-policy`
 * (receivers apply no DMARC processing), `not-dmarc` (not a DMARC record at all).
 */
export type DmarcVerdict =
  'valid' | 'valid-warn' | 'invalid' | 'invalid-p' | 'invalid-uri' | 'no-policy' | 'not-dmarc';

export interface DmarcTagView {
  /** The name as written. */
  name: string;
  key: string;
  value: string;
  /** Per RFC 9989: a tag it defines, one it removed (pct, ri, rf), or one it does not know. */
  status: 'defined' | 'removed' | 'unknown';
  /** False when the value breaks the tag's rule. */
  valid: boolean;
  span: Span;
}

/** The policies a receiver applies to failing mail, by where the Author Domain sits. */
export interface DmarcEffectivePolicy {
  /** Mail from the domain that publishes the record (`p`). */
  domain: DmarcPolicy;
  /** Mail from existing subdomains that have no record of their own (`sp`, else `p`). */
  subdomains: DmarcPolicy;
  /** Mail from subdomains that do not exist (`np`, else `sp`, else `p`; RFC 9989 only). */
  nonExistentSubdomains: DmarcPolicy;
}

export interface DmarcParsed {
  /** Every tag as written, in order (`v` first). */
  tags: DmarcTagView[];
  /** The published values, null when absent or invalid. */
  p: DmarcPolicy | null;
  sp: DmarcPolicy | null;
  np: DmarcPolicy | null;
  /** What RFC 9989 receivers apply; null when they apply no DMARC processing (no valid p and no valid rua). */
  effective: DmarcEffectivePolicy | null;
  /** `t=y`: receivers apply one level less to failing mail (RFC 9989 §4.7). */
  testMode: boolean;
  /** The effective policies after test mode; equal to `effective` without `t=y`. */
  applied: DmarcEffectivePolicy | null;
  adkim: DmarcAlignment;
  aspf: DmarcAlignment;
  fo: DmarcFailureOption[];
  psd: DmarcPsd;
  t: 'y' | 'n';
  rua: DmarcUri[];
  ruf: DmarcUri[];
  /** Tags RFC 9989 removed, as written. */
  removed: { tag: DmarcRemovedTag; value: string }[];
  /** The verdict under each specification. */
  verdicts: { rfc9989: DmarcVerdict; rfc7489: DmarcVerdict };
}

/** The reading of one record under one specification. */
export interface DmarcAnalysis {
  spec: DmarcSpec;
  verdict: DmarcVerdict;
  diagnostics: Diagnostic[];
  /** Absent when the text is not a DMARC record. */
  parsed?: Omit<DmarcParsed, 'verdicts'>;
}

/** The error codes that decide a verdict other than `invalid`. */
const verdictOfError: Readonly<Record<string, DmarcVerdict>> = {
  DMARC_P_INVALID: 'invalid-p',
  DMARC_URI_INVALID: 'invalid-uri',
  DMARC_NO_POLICY: 'no-policy',
};
const verdictRank: readonly DmarcVerdict[] = [
  'not-dmarc',
  'invalid',
  'invalid-p',
  'invalid-uri',
  'no-policy',
];

/** Levenshtein distance of at most one, for "did you mean" on misspelt tags. */
function nearlyEqual(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      // a swap of two neighbours counts as one edit
      if (a[i + 1] === b[j] && a[i] === b[j + 1]) {
        i += 2;
        j += 2;
        continue;
      }
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

function suggestTag(key: string, spec: DmarcSpec): string | undefined {
  if (key.length < 2) return undefined;
  return Object.keys(dmarcTagDefinitions).find(
    (name) => name !== 'v' && name !== key && isDefinedIn(name as never, spec) && nearlyEqual(key, name),
  );
}

interface TagReading {
  view: DmarcTagView;
  raw: DmarcRawTag;
}

/**
 * Reads a DMARC record under one specification: RFC 9989 (current) or RFC 7489 (what receivers
 * that have not moved to DMARCbis do). Tags the specification does not define are ignored as it
 * requires (RFC 9989 §4.7, RFC 7489 §6.3); under RFC 9989 that is a warning, because a tag that is
 * ignored is usually a mistake or one of the removed pct, ri and rf.
 */
export function analyzeDmarcRecord(text: string, spec: DmarcSpec = 'RFC 9989'): DmarcAnalysis {
  const parse = parseDmarcRecord(text);
  if (!parse.ok) {
    return {
      spec,
      verdict: 'not-dmarc',
      diagnostics: parse.diagnostics.map((d) => ({ ...d, rfc: cite(spec, '§4.7', '§6.3') })),
    };
  }
  const diagnostics: Diagnostic[] = [...parse.diagnostics];
  const readings: TagReading[] = [];
  const firstOf = new Map<string, TagReading>();

  const values = defaultTagValues();

  for (const [index, raw] of parse.tags.entries()) {
    const known = isDmarcTagName(raw.key);
    const status: DmarcTagView['status'] = !known
      ? 'unknown'
      : dmarcTagDefinitions[raw.key as keyof typeof dmarcTagDefinitions].inRfc9989
        ? 'defined'
        : 'removed';
    const reading: TagReading = {
      raw,
      view: { name: raw.name, key: raw.key, value: raw.value, status, valid: true, span: raw.span },
    };
    readings.push(reading);
    if (index === 0) continue; // v=DMARC1, checked by the parser
    const duplicate = firstOf.has(raw.key);
    if (!duplicate) firstOf.set(raw.key, reading);
    if (raw.name !== raw.key && known) {
      diagnostics.push({
        severity: 'warning',
        code: 'DMARC_TAG_CASE',
        message: `The tag ${raw.name} is written in upper case; the tags are defined in lower case and receivers that compare names exactly ignore it`,
        rfc: cite(spec, '§4.7', '§6.3'),
        fix: `Write ${raw.key}=${raw.value}.`,
        span: raw.nameSpan,
      });
    }
    if (duplicate) continue;
    if (raw.key === 'v') continue;

    if (!known || !isDefinedIn(raw.key as never, spec)) {
      ignoredTag(reading, spec, diagnostics, values.removed);
      continue;
    }
    dmarcTagChecks[raw.key as keyof typeof dmarcTagChecks]({
      raw,
      spec,
      values,
      invalid: (code, message, fix) => {
        reading.view.valid = false;
        diagnostics.push({
          severity: 'error',
          code,
          message,
          requirement: 'MUST',
          rfc: cite(spec, '§4.8', '§6.4'),
          fix,
          span: raw.valueSpan,
        });
      },
      markInvalid: () => {
        reading.view.valid = false;
      },
      report: (diagnostic) => diagnostics.push(diagnostic),
    });
  }

  const { p, pInvalid, sp, np, subInvalid, adkim, aspf, fo, psd, t, rua, ruf, removed } = values;
  const validRua = rua.some((uri) => uri.problem === null);
  const validRuf = ruf.some((uri) => uri.problem === null);
  const pTag = firstOf.get('p');

  // RFC 9989 §4.10.1 / RFC 7489 §6.6.3 step 6: no valid p, or an invalid sp or np
  let effective: DmarcEffectivePolicy | null;
  if (p === null || pInvalid || subInvalid) {
    if (validRua) {
      effective = { domain: 'none', subdomains: 'none', nonExistentSubdomains: 'none' };
      if (pTag === undefined) {
        diagnostics.push({
          severity: spec === 'RFC 9989' ? 'info' : 'warning',
          code: 'DMARC_P_MISSING',
          message:
            spec === 'RFC 9989'
              ? 'There is no p tag: RFC 9989 receivers treat the record as p=none (monitoring only)'
              : 'There is no p tag, which RFC 7489 requires; receivers act as if p=none because rua has a valid address',
          requirement: spec === 'RFC 9989' ? 'SHOULD' : 'MUST',
          rfc: cite(spec, '§4.10.1', '§6.6.3'),
          fix: 'Add p=none (or quarantine/reject) right after v=DMARC1.',
        });
      } else {
        diagnostics.push({
          severity: 'info',
          code: 'DMARC_INVALID_POLICY_AS_NONE',
          message:
            'Because a policy tag is invalid and rua has a valid address, receivers act as if the record said p=none',
          rfc: cite(spec, '§4.10.1', '§6.6.3'),
        });
      }
    } else {
      effective = null;
      diagnostics.push({
        severity: 'error',
        code: 'DMARC_NO_POLICY',
        message:
          pTag === undefined
            ? 'There is no p tag and no valid rua address, so receivers apply no DMARC processing at all'
            : 'A policy tag is invalid and there is no valid rua address, so receivers apply no DMARC processing at all',
        requirement: 'MUST',
        rfc: cite(spec, '§4.10.1', '§6.6.3'),
        fix: 'Add p=none (or quarantine/reject) and a rua=mailto: address for aggregate reports.',
      });
    }
  } else {
    const subdomains = sp ?? p;
    effective = {
      domain: p,
      subdomains,
      nonExistentSubdomains: spec === 'RFC 9989' ? (np ?? subdomains) : subdomains,
    };
  }

  // RFC 7489 §6.4's grammar has p right after v; RFC 9989 allows any order
  if (pTag !== undefined && readings.indexOf(pTag) !== 1) {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_P_NOT_SECOND',
      message:
        'p is not the tag right after v=DMARC1: RFC 9989 allows any order, but the RFC 7489 grammar puts p second and some older receivers insist on it',
      rfc: 'RFC 7489 §6.4',
      fix: 'Write v=DMARC1; p=… first, then the other tags.',
      span: pTag.raw.span,
    });
  }

  if (!validRua) {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_RUA_MISSING',
      message:
        'No rua address: nobody will send you aggregate reports, so you cannot see who sends mail as your domain',
      requirement: 'MUST',
      rfc: cite(spec, '§8', '§6.3'),
      fix: 'Add rua=mailto:dmarc-reports@your-domain and read the reports before tightening the policy.',
    });
  }
  const foTag = firstOf.get('fo');
  if (foTag !== undefined && !validRuf) {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_FO_WITHOUT_RUF',
      message: 'fo is set but there is no valid ruf address: receivers MUST ignore fo without ruf',
      requirement: 'MUST',
      rfc: cite(spec, '§4.7', '§6.3'),
      fix: 'Add ruf=mailto:… for failure reports, or remove fo.',
      span: foTag.raw.span,
    });
  }

  if (effective !== null) adviseOnPolicy(effective, { p, sp, np, t, psd, spec }, firstOf, diagnostics);

  if (text.length > 255) {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_LONG_RECORD',
      message: `The record is ${text.length} characters long: a TXT character-string holds at most 255, so publish it as several strings in one record; receivers join them`,
      rfc: cite(spec, '§4.5', '§6.1'),
    });
  }

  const testMode = spec === 'RFC 9989' && t === 'y';
  const applied =
    effective === null || !testMode
      ? effective
      : {
          domain: testModePolicy(effective.domain),
          subdomains: testModePolicy(effective.subdomains),
          nonExistentSubdomains: testModePolicy(effective.nonExistentSubdomains),
        };

  return {
    spec,
    verdict: verdictOf(diagnostics),
    diagnostics,
    parsed: {
      tags: readings.map((reading) => reading.view),
      p,
      sp,
      np: spec === 'RFC 9989' ? np : null,
      effective,
      testMode,
      applied,
      adkim,
      aspf,
      fo,
      psd: spec === 'RFC 9989' ? psd : 'u',
      t: spec === 'RFC 9989' ? t : 'n',
      rua,
      ruf,
      removed,
    },
  };
}

function verdictOf(diagnostics: readonly Diagnostic[]): DmarcVerdict {
  let verdict: DmarcVerdict | undefined;
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== 'error') continue;
    const candidate = verdictOfError[diagnostic.code] ?? 'invalid';
    if (verdict === undefined || verdictRank.indexOf(candidate) < verdictRank.indexOf(verdict))
      verdict = candidate;
  }
  if (verdict !== undefined) return verdict;
  return diagnostics.some((d) => d.severity === 'warning') ? 'valid-warn' : 'valid';
}

/** A tag the specification does not define: ignored by receivers, as it must be. */
function ignoredTag(
  reading: TagReading,
  spec: DmarcSpec,
  diagnostics: Diagnostic[],
  removed: { tag: DmarcRemovedTag; value: string }[],
) {
  const { raw } = reading;
  if (spec === 'RFC 9989' && (raw.key === 'pct' || raw.key === 'ri' || raw.key === 'rf')) {
    const note = dmarcRemovedTagNotes[raw.key];
    removed.push({ tag: raw.key, value: raw.value });
    let legacy = '';
    if (raw.key === 'pct' && /^[0-9]+$/.test(raw.value) && Number(raw.value) < 100) {
      legacy =
        Number(raw.value) === 0
          ? ' RFC 7489 receivers still read pct=0 as "apply the policy to no failing mail"; t=y is its replacement.'
          : ` RFC 7489 receivers still apply the policy to only ${Number(raw.value)}% of failing mail, RFC 9989 receivers to all of it.`;
    }
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_REMOVED_TAG',
      message: `${raw.key}=${raw.value}: ${note.reason}.${legacy}`,
      rfc: note.rfc,
      fix: `${note.instead}.`,
      span: raw.span,
    });
    return;
  }
  if (spec === 'RFC 7489' && isDmarcTagName(raw.key)) {
    // np, psd and t: defined since, so an RFC 7489 receiver simply does not know them
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_TAG_UNKNOWN_TO_RFC7489',
      message: `${raw.key} is defined by RFC 9989; RFC 7489 receivers ignore it`,
      rfc: 'RFC 7489 §6.3',
      span: raw.span,
    });
    return;
  }
  const suggestion = suggestTag(raw.key, spec);
  diagnostics.push({
    severity: spec === 'RFC 9989' ? 'warning' : 'info',
    code: 'DMARC_UNKNOWN_TAG',
    message: `${raw.name} is not a DMARC tag, so receivers ignore it${suggestion ? ` (did you mean ${suggestion}?)` : ''}`,
    requirement: 'MUST',
    rfc: cite(spec, '§4.7', '§6.3'),
    fix: suggestion
      ? `Write ${suggestion}=${raw.value} if that was meant, or remove the tag.`
      : 'Remove the tag.',
    span: raw.span,
  });
}

function adviseOnPolicy(
  effective: DmarcEffectivePolicy,
  record: {
    p: DmarcPolicy | null;
    sp: DmarcPolicy | null;
    np: DmarcPolicy | null;
    t: 'y' | 'n';
    psd: DmarcPsd;
    spec: DmarcSpec;
  },
  firstOf: ReadonlyMap<string, TagReading>,
  diagnostics: Diagnostic[],
) {
  const { spec } = record;
  const span = (key: string) => {
    const reading = firstOf.get(key);
    return reading === undefined ? {} : { span: reading.raw.span };
  };
  if (record.p === 'none') {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_POLICY_NONE',
      message:
        'p=none is monitoring mode: receivers send reports but take no action on mail that fails DMARC. Stay here for 3-6 months while you read the aggregate reports and fix your senders, then move to quarantine',
      rfc: cite(spec, '§5.1.4', '§6.3'),
      ...span('p'),
    });
  } else if (record.p === 'reject') {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_REJECT_INDIRECT_MAIL',
      message:
        'p=reject: mail forwarded by mailing lists and aliases often fails DMARC and is rejected. Domains whose users post to mailing lists SHOULD NOT publish p=reject, and a domain that does MUST NOT rely on SPF alone: sign all mail with DKIM',
      requirement: 'SHOULD NOT',
      rfc: 'RFC 9989 §7.4',
      ...span('p'),
    });
  }
  if (record.sp === 'none' && record.p !== null && record.p !== 'none') {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_SP_NONE',
      message: `sp=none leaves subdomains unprotected while the domain itself has p=${record.p}: mail from any subdomain that fails DMARC is still delivered`,
      rfc: cite(spec, '§4.7', '§6.3'),
      fix: `Remove sp to apply p=${record.p} to subdomains too, or set sp=quarantine.`,
      ...span('sp'),
    });
  } else if (record.sp !== null && policyStrength(effective.subdomains) < policyStrength(effective.domain)) {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_SP_WEAKER',
      message: `Subdomains get sp=${effective.subdomains}, weaker than p=${effective.domain}`,
      rfc: cite(spec, '§4.7', '§6.3'),
      ...span('sp'),
    });
  }
  if (
    spec === 'RFC 9989' &&
    record.np !== null &&
    policyStrength(effective.nonExistentSubdomains) < policyStrength(effective.subdomains)
  ) {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_NP_WEAKER',
      message: `Subdomains that do not exist get np=${effective.nonExistentSubdomains}, weaker than the ${effective.subdomains} that existing subdomains get; mail from names that do not exist is almost always forged`,
      rfc: 'RFC 9989 §4.7',
      ...span('np'),
    });
  }
  if (spec === 'RFC 9989' && record.t === 'y') {
    const none =
      effective.domain === 'none' &&
      effective.subdomains === 'none' &&
      effective.nonExistentSubdomains === 'none';
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_TEST_MODE',
      message: none
        ? 't=y (test mode) has no effect on a policy of none'
        : `t=y (test mode): receivers apply one level less to failing mail (reject as quarantine, quarantine as none) while you test; remove t when the reports are clean`,
      rfc: 'RFC 9989 §4.7',
      ...span('t'),
    });
  }
  if (spec === 'RFC 9989' && record.psd === 'y') {
    diagnostics.push({
      severity: 'warning',
      code: 'DMARC_PSD_Y',
      message:
        'psd=y declares this domain a Public Suffix Domain (like a TLD): each of its subdomains becomes its own Organizational Domain. Only public suffix operators publish it',
      requirement: 'MUST',
      rfc: 'RFC 9989 §5.2',
      fix: 'Remove psd=y unless you operate a public suffix; use psd=n to make this domain an Organizational Domain.',
      ...span('psd'),
    });
  } else if (spec === 'RFC 9989' && record.psd === 'n') {
    diagnostics.push({
      severity: 'info',
      code: 'DMARC_PSD_N',
      message:
        'psd=n: this domain is the Organizational Domain of itself and its subdomains, whatever records its parents publish',
      rfc: 'RFC 9989 §4.10.2',
      ...span('psd'),
    });
  }
}

/** Codes whose RFC 7489 reading is worth a note when RFC 9989's differs. */
function rfc7489Notes(legacy: DmarcAnalysis, current: DmarcAnalysis): Diagnostic[] {
  const currentCodes = new Set(current.diagnostics.map((d) => d.code));
  return legacy.diagnostics
    .filter((d) => d.severity !== 'info' && !currentCodes.has(d.code) && d.code !== 'DMARC_P_MISSING')
    .map((d) => ({
      ...d,
      severity: 'info' as const,
      code: `DMARC_RFC7489_${d.code.replace(/^DMARC_/, '')}`,
      message: `For RFC 7489 receivers: ${d.message}`,
    }));
}

/**
 * Validates a DMARC record as RFC 9989 reads it, with notes where receivers still on RFC 7489
 * read it differently. `parsed.verdicts` gives the verdict under each.
 */
export function validateDmarcRecord(text: string): ValidationResult<DmarcParsed> {
  const current = analyzeDmarcRecord(text, 'RFC 9989');
  const legacy = analyzeDmarcRecord(text, 'RFC 7489');
  const diagnostics = [...current.diagnostics, ...(current.parsed ? rfc7489Notes(legacy, current) : [])];
  if (current.parsed === undefined) return toValidationResult<DmarcParsed>(diagnostics);
  return toValidationResult<DmarcParsed>(diagnostics, {
    ...current.parsed,
    verdicts: { rfc9989: current.verdict, rfc7489: legacy.verdict },
  });
}
