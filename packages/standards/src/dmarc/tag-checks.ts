/**
 * The value rule of each DMARC tag (RFC 9989 §4.8 Table 2, RFC 7489 §6.4), one check per tag of
 * the table in tags.ts: analyzeDmarcRecord runs the check of every tag the specification defines,
 * in the order the record writes them.
 */
import type { Diagnostic } from '../core/diagnostic.ts';
import type { DmarcRawTag } from './parse.ts';
import {
  dmarcAlignmentModes,
  dmarcFailureOptions,
  dmarcPolicies,
  dmarcPsdValues,
  type DmarcAlignment,
  type DmarcFailureOption,
  type DmarcPolicy,
  type DmarcPsd,
  type DmarcRemovedTag,
  type DmarcSpec,
  type DmarcTagName,
} from './tags.ts';
import { describeUriProblem, parseDmarcUriList, type DmarcUri } from './uri.ts';

/** What the checks read out of a record: the published values, as far as they are valid. */
export interface DmarcTagValues {
  p: DmarcPolicy | null;
  pInvalid: boolean;
  sp: DmarcPolicy | null;
  np: DmarcPolicy | null;
  /** An sp or np that is not a policy. */
  subInvalid: boolean;
  adkim: DmarcAlignment;
  aspf: DmarcAlignment;
  fo: DmarcFailureOption[];
  psd: DmarcPsd;
  t: 'y' | 'n';
  rua: DmarcUri[];
  ruf: DmarcUri[];
  removed: { tag: DmarcRemovedTag; value: string }[];
}

/** The values of a record without tags: the defaults of RFC 9989 §4.7. */
export function defaultTagValues(): DmarcTagValues {
  return {
    p: null,
    pInvalid: false,
    sp: null,
    np: null,
    subInvalid: false,
    adkim: 'r',
    aspf: 'r',
    fo: ['0'],
    psd: 'u',
    t: 'n',
    rua: [],
    ruf: [],
    removed: [],
  };
}

/** What a check is given: the tag, the specification, the values so far and where diagnostics go. */
export interface DmarcTagCheckInput {
  raw: DmarcRawTag;
  spec: DmarcSpec;
  values: DmarcTagValues;
  /** The value breaks the tag's rule: an error on the value, and the tag shows as invalid. */
  invalid(code: string, message: string, fix: string): void;
  /** The tag shows as invalid; the check reports the error itself. */
  markInvalid(): void;
  report(diagnostic: Diagnostic): void;
}

export type DmarcTagCheck = (input: DmarcTagCheckInput) => void;

export function cite(spec: DmarcSpec, rfc9989: string, rfc7489: string): string {
  return spec === 'RFC 9989' ? `RFC 9989 ${rfc9989}` : `RFC 7489 ${rfc7489}`;
}

function oneOf<T extends string>(values: readonly T[], value: string): T | null {
  const lower = value.toLowerCase();
  return (values as readonly string[]).includes(lower) ? (lower as T) : null;
}

function policyCheck(key: 'p' | 'sp' | 'np'): DmarcTagCheck {
  return ({ raw, values, invalid }) => {
    const value = oneOf(dmarcPolicies, raw.value);
    if (value === null) {
      invalid(
        `DMARC_${raw.key.toUpperCase()}_INVALID`,
        `${raw.key}=${raw.value} is not a policy: the values are none, quarantine and reject`,
        `Write ${raw.key}=none, ${raw.key}=quarantine or ${raw.key}=reject.`,
      );
      if (key === 'p') values.pInvalid = true;
      else values.subInvalid = true;
    } else values[key] = value;
  };
}

function alignmentCheck(key: 'adkim' | 'aspf'): DmarcTagCheck {
  return ({ raw, values, invalid }) => {
    const value = oneOf(dmarcAlignmentModes, raw.value);
    if (value === null) {
      invalid(
        `DMARC_${raw.key.toUpperCase()}_INVALID`,
        `${raw.key}=${raw.value} is not an alignment mode: the values are r (relaxed) and s (strict)`,
        `Write ${raw.key}=r or ${raw.key}=s.`,
      );
    } else values[key] = value;
  };
}

function readFailureOptions(
  value: string,
): { options: DmarcFailureOption[]; duplicates: string[] } | { error: string } {
  const items = value.split(':').map((item) => item.trim());
  const options: DmarcFailureOption[] = [];
  const duplicates: string[] = [];
  for (const item of items) {
    const option = oneOf(dmarcFailureOptions, item);
    if (option === null) {
      return {
        error:
          item === ''
            ? `fo=${value} has an empty option between colons`
            : `fo=${value}: '${item}' is not a failure reporting option; the options are 0, 1, d and s, separated by colons`,
      };
    }
    if (options.includes(option)) duplicates.push(option);
    else options.push(option);
  }
  return { options, duplicates };
}

function failureOptionsCheck({ raw, spec, values, invalid, report }: DmarcTagCheckInput): void {
  const read = readFailureOptions(raw.value);
  if ('error' in read) {
    invalid(
      'DMARC_FO_INVALID',
      read.error,
      'Write a colon-separated list of 0 or 1, d and s, for example fo=1 or fo=0:d.',
    );
    return;
  }
  values.fo = read.options;
  if (read.duplicates.length > 0) {
    report({
      severity: 'warning',
      code: 'DMARC_FO_DUPLICATE',
      message: `fo lists ${read.duplicates.join(', ')} more than once; each option may appear only once`,
      rfc: cite(spec, '§4.8', '§6.4'),
      fix: 'List each option once.',
      span: raw.valueSpan,
    });
  }
  if (values.fo.includes('0') && values.fo.includes('1')) {
    report({
      severity: 'warning',
      code: 'DMARC_FO_REDUNDANT',
      message:
        'fo has both 0 and 1, which are mutually exclusive: 1 (report when any mechanism fails) already covers 0 (report when all fail)',
      rfc: cite(spec, '§4.7', '§6.3'),
      fix: 'Keep one of them: fo=1 for more reports, fo=0 for fewer.',
      span: raw.valueSpan,
    });
  }
}

function uriListCheck(key: 'rua' | 'ruf'): DmarcTagCheck {
  return ({ raw, spec, values, markInvalid, report }) => {
    const uris = parseDmarcUriList(raw.value, raw.valueSpan.start);
    values[key] = uris;
    for (const uri of uris) {
      if (uri.problem !== null) {
        markInvalid();
        report({
          severity: 'error',
          code: 'DMARC_URI_INVALID',
          message: `${key}: ${describeUriProblem(uri)}`,
          requirement: 'MUST',
          rfc: cite(spec, '§4.8', '§6.4'),
          fix:
            uri.problem.kind === 'no-scheme' && uri.problem.looksLikeAddress
              ? `Write ${key}=mailto:${uri.uri}.`
              : `Write each address as mailto:name@example.com, separated by commas.`,
          span: uri.span,
        });
        continue;
      }
      if (uri.size !== null && spec === 'RFC 9989') {
        report({
          severity: 'warning',
          code: 'DMARC_URI_SIZE_OBSOLETE',
          message: `${key}: the size limit !${uri.size} is obsolete in RFC 9989 and reporters ignore it`,
          rfc: 'RFC 9989 §4.8',
          fix: `Remove !${uri.size}.`,
          span: uri.span,
        });
      }
      if (uri.scheme !== 'mailto') {
        report({
          severity: 'warning',
          code: 'DMARC_URI_SCHEME_UNSUPPORTED',
          message: `${key}: '${uri.uri}' uses ${uri.scheme}:, but receivers only have to support mailto: and ignore schemes they do not support`,
          rfc: cite(spec, '§4.7', '§6.2'),
          fix: 'Use a mailto: address.',
          span: uri.span,
        });
      }
    }
  };
}

/** The check of each tag but v (which the parser checks), keyed by the tag table's names. */
export const dmarcTagChecks: Readonly<Record<Exclude<DmarcTagName, 'v'>, DmarcTagCheck>> = {
  p: policyCheck('p'),
  sp: policyCheck('sp'),
  np: policyCheck('np'),
  adkim: alignmentCheck('adkim'),
  aspf: alignmentCheck('aspf'),
  fo: failureOptionsCheck,
  rua: uriListCheck('rua'),
  ruf: uriListCheck('ruf'),
  psd: ({ raw, values, invalid }) => {
    const value = oneOf(dmarcPsdValues, raw.value);
    if (value === null)
      invalid(
        'DMARC_PSD_INVALID',
        `psd=${raw.value} is not valid: the values are y, n and u`,
        'Write psd=n, or leave psd out.',
      );
    else values.psd = value;
  },
  t: ({ raw, values, invalid }) => {
    const value = oneOf(['y', 'n'] as const, raw.value);
    if (value === null)
      invalid(
        'DMARC_T_INVALID',
        `t=${raw.value} is not valid: the values are y and n`,
        'Write t=y to test, or leave t out.',
      );
    else values.t = value;
  },
  pct: ({ raw, values, invalid, report }) => {
    const value = /^[0-9]+$/.test(raw.value) ? Number(raw.value) : NaN;
    if (!(value >= 0 && value <= 100))
      invalid(
        'DMARC_PCT_INVALID',
        `pct=${raw.value} is not a whole number from 0 to 100`,
        'Write pct=100, or leave pct out.',
      );
    else if (value < 100) {
      report({
        severity: 'info',
        code: 'DMARC_PCT_PARTIAL',
        message:
          value === 0
            ? 'pct=0: receivers apply the policy to no failing mail, and many treat it as a signal to rewrite the From header of forwarded mail'
            : `pct=${value}: receivers apply the policy to ${value}% of failing mail and the next weaker policy to the rest`,
        rfc: 'RFC 7489 §6.3',
        span: raw.valueSpan,
      });
    }
    values.removed.push({ tag: 'pct', value: raw.value });
  },
  ri: ({ raw, values, invalid }) => {
    const value = /^[0-9]+$/.test(raw.value) ? Number(raw.value) : NaN;
    if (!(value >= 0 && value <= 4294967295))
      invalid(
        'DMARC_RI_INVALID',
        `ri=${raw.value} is not a number of seconds`,
        'Write ri=86400, or leave ri out.',
      );
    values.removed.push({ tag: 'ri', value: raw.value });
  },
  rf: ({ raw, values, invalid }) => {
    const formats = raw.value.split(':').map((format) => format.trim().toLowerCase());
    const unknown = formats.filter((format) => format !== 'afrf');
    if (unknown.length > 0) {
      invalid(
        'DMARC_RF_INVALID',
        `rf=${raw.value}: ${unknown.map((format) => `'${format}'`).join(', ')} ${unknown.length === 1 ? 'is not a registered failure report format' : 'are not registered failure report formats'}; the only one is afrf`,
        'Write rf=afrf, or leave rf out.',
      );
    }
    values.removed.push({ tag: 'rf', value: raw.value });
  },
};
