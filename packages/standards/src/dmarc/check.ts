import type { CorrectedRecord } from '../core/schema.ts';
import { correctDmarcRecord } from './correct.ts';
import { toValidationResult, type Diagnostic, type ValidationResult } from '../core/diagnostic.ts';
import { overlayResolver } from '../core/fixture-resolver.ts';
import type { Resolver } from '../core/resolver.ts';
import { discoverDmarc, type DmarcDiscovery } from './discovery.ts';
import { createDmarcDns } from './lookups.ts';
import { readDmarcTxtInput } from './parse.ts';
import { checkReportDestinations, type DmarcReportDestination } from './report-destinations.ts';
import { normalizeDmarcDomain } from './schema.ts';
import { validateDmarcRecord, type DmarcParsed } from './validate.ts';

/** Whether `domain` is what normalizeDmarcDomain gives: lower case, fit to look up at `_dmarc.`. */
function isDmarcDomainName(domain: string): boolean {
  const normalized = normalizeDmarcDomain(domain);
  return normalized.ok && normalized.domain === domain;
}

export interface DmarcCheckInput {
  /** A pasted record: the TXT value, or zone-file quoted strings. */
  record?: string | undefined;
  /** A domain, normalised by `normalizeDmarcDomain` (anything else is a programming error: RangeError). */
  domain?: string | undefined;
}

/** `POST /v1/dmarc/validate`'s result: the standard validator shape plus discovery and report destinations. */
export interface DmarcCheckResult extends ValidationResult<DmarcParsed> {
  domain: string | null;
  /** The record that was validated: the pasted one, or the one discovery found; null when none. */
  record: string | null;
  /** Where `record` came from. */
  recordSource: 'pasted' | 'dns' | null;
  /** Policy discovery for `domain` (with a pasted record: as if it were published at `_dmarc.<domain>`). */
  discovery: DmarcDiscovery | null;
  /** The external destination checks of the record's rua and ruf (needs a domain). */
  reportDestinations: DmarcReportDestination[];
  /** The record with its mechanical fixes (a missing p= added, invalid tags fixed), when it has any. */
  correctedRecord?: CorrectedRecord;
}

/**
 * Validates a DMARC record, a domain's DMARC setup, or a pasted record as if it were published at a
 * domain (an overlay answers `_dmarc.<domain>` with it; every other name goes to `resolver`).
 * Without a domain only the record is checked and no DNS query is made.
 */
export async function checkDmarc(input: DmarcCheckInput, resolver?: Resolver): Promise<DmarcCheckResult> {
  const pasted =
    input.record === undefined || input.record === '' ? undefined : readDmarcTxtInput(input.record);
  const domain = input.domain === undefined || input.domain === '' ? null : input.domain;
  const notes: Diagnostic[] = [];
  if (pasted?.quoted === true) {
    notes.push({
      severity: 'info',
      code: 'DMARC_QUOTED_STRINGS',
      message: `Read as ${pasted.strings.length} quoted string${pasted.strings.length === 1 ? '' : 's'} of one TXT record, joined without spaces as receivers join them`,
      rfc: 'RFC 9989 §4.5',
    });
  }

  if (domain === null || resolver === undefined) {
    if (pasted === undefined) throw new Error('checkDmarc needs a record, or a domain and a resolver');
    const result = validateDmarcRecord(pasted.text);
    return finish([...notes, ...result.diagnostics], result.parsed, {
      domain: null,
      record: pasted.text,
      recordSource: 'pasted',
      discovery: null,
      reportDestinations: [],
    });
  }

  if (!isDmarcDomainName(domain)) throw new RangeError(`checkDmarc: '${domain}' is not a normalised domain`);
  const dns = createDmarcDns(
    pasted === undefined
      ? resolver
      : overlayResolver(
          { [`_dmarc.${domain}`]: { TXT: [pasted.quoted ? pasted.strings : pasted.text] } },
          resolver,
        ),
  );
  const discovery = await discoverDmarc(domain, dns);
  let text: string | null = pasted?.text ?? null;
  let recordDomain = domain;
  if (pasted === undefined) {
    const found = discovery.record;
    text = found?.text ?? null;
    recordDomain = found?.domain ?? domain;
  }
  const diagnostics = [...notes];
  let parsed: DmarcParsed | undefined;
  let reportDestinations: DmarcReportDestination[] = [];
  if (text !== null) {
    const validation = validateDmarcRecord(text);
    parsed = validation.parsed;
    diagnostics.push(...validation.diagnostics);
    if (parsed !== undefined) {
      const check = await checkReportDestinations(recordDomain, parsed, dns);
      reportDestinations = check.destinations;
      diagnostics.push(...check.diagnostics);
    }
  }
  diagnostics.push(...discovery.diagnostics);
  return finish(diagnostics, parsed, {
    domain,
    record: text,
    recordSource: text === null ? null : pasted === undefined ? 'dns' : 'pasted',
    discovery,
    reportDestinations,
  });
}

function finish(
  diagnostics: Diagnostic[],
  parsed: DmarcParsed | undefined,
  extra: Omit<DmarcCheckResult, keyof ValidationResult<DmarcParsed> | 'correctedRecord'>,
): DmarcCheckResult {
  const correctedRecord = extra.record === null ? undefined : correctDmarcRecord(extra.record);
  return {
    ...toValidationResult(diagnostics, parsed),
    ...extra,
    ...(correctedRecord === undefined ? {} : { correctedRecord }),
  };
}
