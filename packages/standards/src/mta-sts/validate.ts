/** Validation of a pasted `_mta-sts` TXT record or policy file against RFC 8461 §3. */
import { toValidationResult, type Diagnostic, type ValidationResult } from '../core/diagnostic.ts';
import {
  mtaStsMaxAgeLimit,
  mtaStsModes,
  parseMtaStsPolicy,
  parseMtaStsRecord,
  type MtaStsMode,
} from './parse.ts';
import { mtaStsRecordMessages } from './schema.ts';

const POLICY_SECTION = 'RFC 8461 §3.2';
/** RFC 8461 §3.2 expects max_age "in the range of weeks or greater". */
const shortMaxAge = 604800;

export interface MtaStsRecordParsed {
  kind: 'record';
  id: string | null;
  fields: Array<{ name: string; value: string; span: { start: number; end: number } }>;
}

export interface MtaStsPolicyParsed {
  kind: 'policy';
  version: string | null;
  mode: MtaStsMode | null;
  maxAge: number | null;
  mx: string[];
  fields: Array<{ key: string; value: string; line: number }>;
}

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * Why an mx pattern is not `["*."] Domain` (RFC 8461 §3.2 with RFC 5321 §4.1.2: letters, digits and
 * hyphens between dots), or null when it is one. `*` may only be the whole left-most label.
 */
export function mxPatternProblem(pattern: string): string | null {
  const name = pattern.trim();
  if (name === '') return 'The mx value is empty';
  const bare = name.replace(/^\*\./, '').replace(/\.$/, '');
  if (bare.includes('*'))
    return `'${name}': '*' may only stand as the whole left-most label, as in *.example.com`;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(bare) || bare.includes(':'))
    return `'${name}' is an IP address: mx patterns are host names, as in MX records`;
  if (bare.length > 253) return `'${name.slice(0, 40)}…' is longer than the 253 characters of a domain name`;
  const bad = bare.split('.').find((label) => !LDH_LABEL.test(label));
  if (bad !== undefined)
    return bad === ''
      ? `'${name}' has an empty label`
      : `'${name}': the label '${bad}' is not letters, digits and inner hyphens`;
  return null;
}

/** The policy's mx pattern checks: syntax (error), trailing dot and too wide a wildcard (warning), repeats (info). */
function mxDiagnostics(mx: Array<{ pattern: string; line: number }>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const { pattern, line } of mx) {
    const problem = mxPatternProblem(pattern);
    if (problem !== null) {
      diagnostics.push({
        severity: 'error',
        code: 'MTASTS_POLICY_MX_SYNTAX',
        message: problem,
        requirement: 'MUST',
        rfc: POLICY_SECTION,
        fix: 'Write the MX host name as in your MX records (mail.example.com), or *. and a name to allow any one label in front of it.',
        line,
      });
      continue;
    }
    const key = pattern.toLowerCase().replace(/\.$/, '');
    if (pattern.endsWith('.')) {
      diagnostics.push({
        severity: 'warning',
        code: 'MTASTS_POLICY_MX_TRAILING_DOT',
        message: `'${pattern}' ends with a dot, which the mx grammar does not allow`,
        rfc: POLICY_SECTION,
        fix: `Write it without the final dot: mx: ${pattern.slice(0, -1)}`,
        line,
      });
    }
    if (key.startsWith('*.') && !key.slice(2).includes('.')) {
      diagnostics.push({
        severity: 'warning',
        code: 'MTASTS_POLICY_MX_TOO_WIDE',
        message: `'${pattern}' allows any host in the whole top-level domain`,
        rfc: 'RFC 8461 §4.1',
        fix: 'Name your MX hosts, or a wildcard under your own domain such as *.example.com.',
        line,
      });
    }
    if (seen.has(key)) {
      diagnostics.push({
        severity: 'info',
        code: 'MTASTS_POLICY_MX_DUPLICATE',
        message: `mx '${pattern}' is listed twice`,
        rfc: POLICY_SECTION,
        fix: 'Remove the second line; it changes nothing.',
        line,
      });
    }
    seen.add(key);
  }
  return diagnostics;
}

/** Validates an `_mta-sts` TXT record (RFC 8461 §3.1). */
export function validateMtaStsRecord(text: string): ValidationResult<MtaStsRecordParsed> {
  if (text.trim() === '') {
    return toValidationResult([
      {
        severity: 'error',
        code: 'MTASTS_RECORD_REQUIRED',
        message: mtaStsRecordMessages.recordRequired,
        rfc: 'RFC 8461 §3.1',
        fix: 'Paste the TXT value published at _mta-sts.<domain>, such as v=STSv1; id=20240101120000.',
      },
    ]);
  }
  const parsed = parseMtaStsRecord(text);
  return toValidationResult(parsed.diagnostics, { kind: 'record', id: parsed.id, fields: parsed.fields });
}

/**
 * Validates a policy file (RFC 8461 §3.2) with the product spec's messages for the required fields
 * (spec part 1 §5); guidance on max_age and the mode is given as information.
 */
export function validateMtaStsPolicy(text: string): ValidationResult<MtaStsPolicyParsed> {
  if (text.trim() === '') {
    return toValidationResult([
      {
        severity: 'error',
        code: 'MTASTS_POLICY_REQUIRED',
        message: mtaStsRecordMessages.policyRequired,
        rfc: POLICY_SECTION,
        fix: 'Paste the text served at https://mta-sts.<domain>/.well-known/mta-sts.txt.',
      },
    ]);
  }
  const parsed = parseMtaStsPolicy(text);
  const diagnostics = [...parsed.diagnostics];
  const lineOf = (key: string) => parsed.fields.find((field) => field.key === key)?.line;
  const at = (key: string) => {
    const line = lineOf(key);
    return line === undefined ? {} : { line };
  };
  const required = (key: string, message: string, fix: string) =>
    diagnostics.push({
      severity: 'error',
      code: `MTASTS_POLICY_${key.toUpperCase()}_MISSING`,
      message,
      requirement: 'MUST',
      rfc: POLICY_SECTION,
      fix,
    });

  if (parsed.version === null) {
    required('version', 'version field is required', 'Start the policy with the line "version: STSv1".');
  } else if (parsed.version !== 'STSv1') {
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_POLICY_VERSION',
      message: 'Version must be STSv1',
      requirement: 'MUST',
      rfc: POLICY_SECTION,
      fix: 'Write "version: STSv1" exactly (the value is case-sensitive).',
      ...at('version'),
    });
  }

  let mode: MtaStsMode | null = null;
  if (parsed.mode === null) {
    required(
      'mode',
      'mode field is required',
      'Add "mode: testing" while you watch TLS reports, then "mode: enforce".',
    );
  } else if ((mtaStsModes as readonly string[]).includes(parsed.mode)) {
    mode = parsed.mode as MtaStsMode;
  } else {
    const lower = parsed.mode.toLowerCase();
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_POLICY_MODE',
      message: 'Mode must be enforce, testing, or none',
      requirement: 'MUST',
      rfc: POLICY_SECTION,
      fix: (mtaStsModes as readonly string[]).includes(lower)
        ? `Write the mode in lower case: "mode: ${lower}" (the values are case-sensitive).`
        : 'Use one of "mode: enforce", "mode: testing" or "mode: none".',
      ...at('mode'),
    });
  }

  let maxAge: number | null = null;
  if (parsed.maxAge === null) {
    required('max_age', 'max_age field is required', 'Add "max_age: 604800" (one week) or longer.');
  } else if (!/^\d+$/.test(parsed.maxAge)) {
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_POLICY_MAX_AGE_SYNTAX',
      message: 'max_age must be a non-negative integer',
      requirement: 'MUST',
      rfc: POLICY_SECTION,
      fix: 'Write the number of seconds in digits only, such as "max_age: 604800".',
      ...at('max_age'),
    });
  } else if (parsed.maxAge.length > 10 || Number(parsed.maxAge) > mtaStsMaxAgeLimit) {
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_POLICY_MAX_AGE_RANGE',
      message: `max_age must be at most ${mtaStsMaxAgeLimit} seconds (about one year)`,
      requirement: 'MUST',
      rfc: POLICY_SECTION,
      fix: `Lower max_age to ${mtaStsMaxAgeLimit} or less; some senders would reject the policy, others cut it to a year.`,
      ...at('max_age'),
    });
  } else {
    maxAge = Number(parsed.maxAge);
  }

  if (parsed.mx.length === 0 && mode !== 'none') {
    required(
      'mx',
      'At least one mx field is required',
      'Add one "mx: <host>" line per MX host, such as "mx: mail.example.com".',
    );
  }
  diagnostics.push(...mxDiagnostics(parsed.mx));

  if (maxAge !== null && maxAge < shortMaxAge && mode !== 'none') {
    diagnostics.push({
      severity: 'info',
      code: 'MTASTS_POLICY_MAX_AGE_SHORT',
      message: `max_age is ${maxAge} seconds, under a week: a policy this short protects little against an attacker who blocks its refresh`,
      rfc: POLICY_SECTION,
      fix: 'Once the policy works, raise max_age to weeks or more (604800 is one week, 31557600 one year).',
      ...at('max_age'),
    });
  }
  if (mode === 'testing') {
    diagnostics.push({
      severity: 'info',
      code: 'MTASTS_POLICY_MODE_TESTING',
      message:
        'Testing mode: senders report failures (TLS-RPT) but still deliver over unprotected connections',
      rfc: 'RFC 8461 §5',
      fix: 'Publish a TLS-RPT record, read the reports for a few weeks, then switch to "mode: enforce" and change the record id.',
      ...at('mode'),
    });
  } else if (mode === 'none') {
    diagnostics.push({
      severity: 'info',
      code: 'MTASTS_POLICY_MODE_NONE',
      message: 'Mode none withdraws MTA-STS: senders stop applying the policy they cached',
      rfc: 'RFC 8461 §5, §8.3',
      fix: 'Keep this policy and a new record id published until the old max_age has passed, then remove both; to protect mail, use enforce.',
      ...at('mode'),
    });
  }

  // in the order of the lines they point at, so a reader goes down the file once; file-wide ones last
  diagnostics.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  return toValidationResult(diagnostics, {
    kind: 'policy',
    version: parsed.version,
    mode,
    maxAge,
    mx: parsed.mx.map((entry) => entry.pattern),
    fields: parsed.fields,
  });
}
