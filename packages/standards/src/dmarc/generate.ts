import type { Diagnostic } from '../core/diagnostic.ts';
import { dmarcRemovedTagNotes, type DmarcAlignment, type DmarcPolicy, type DmarcPsd } from './tags.ts';
import { parseDmarcUriList } from './uri.ts';

/**
 * The generator's state: the spec's fields (part 1 §3: policy, subdomainPolicy, alignment,
 * percentage, reporting, reportingOptions) plus the tags RFC 9989 added (np, t, psd).
 */
export interface DmarcGeneratorInput {
  /** The domain the record is for; the record name is `_dmarc.{domain}`. */
  domain?: string | undefined;
  policy: DmarcPolicy;
  subdomainPolicy: DmarcPolicy;
  alignment: { aspf: DmarcAlignment; adkim: DmarcAlignment };
  /** pct, 0-100 (removed in RFC 9989). */
  percentage: number;
  reporting: { rua: string[]; ruf: string[] };
  /** ri in seconds and rf (both removed in RFC 9989), fo as a colon-separated list. */
  reportingOptions: { ri: number; rf: string; fo: string };
  /** np (RFC 9989); absent: not published. */
  nonExistentPolicy?: DmarcPolicy | undefined;
  /** t=y (RFC 9989). */
  testMode?: boolean | undefined;
  /** psd (RFC 9989); `u` is not published. */
  psd?: DmarcPsd | undefined;
}

/** The spec's defaults (part 1 §9). */
export const dmarcGeneratorDefaults = {
  policy: 'none',
  subdomainPolicy: 'none',
  alignment: { aspf: 'r', adkim: 'r' },
  percentage: 100,
  reporting: { rua: [''], ruf: [''] },
  reportingOptions: { ri: 86400, rf: 'afrf', fo: '0' },
  testMode: false,
  psd: 'u',
} as const satisfies DmarcGeneratorInput;

export interface DmarcGeneratorResult {
  /** The TXT record value. */
  record: string;
  /** `_dmarc.{domain}`, or null when no domain was given. */
  name: string | null;
  /** Guidance and notes on what the record does (removed tags, missing reports, invalid addresses). */
  diagnostics: Diagnostic[];
}

/**
 * A mailto: URI for an address: as written when it already is one, else `mailto:` and the address
 * with ',' and '!' percent-encoded, which RFC 9989 §4.8 requires in a DMARC URI.
 */
export function dmarcMailtoUri(entry: string): string {
  const trimmed = entry.trim();
  // another scheme with an authority (https://…) is kept: RFC 9989 allows any URI
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed;
  const address = trimmed.replace(/^mailto:/i, '');
  return `mailto:${address.replace(/,/g, '%2C').replace(/!/g, '%21')}`;
}

/** The record name for a domain: `_dmarc.` and the domain without a trailing dot. */
export function dmarcRecordName(domain: string): string {
  return `_dmarc.${domain.trim().replace(/\.$/, '').toLowerCase()}`;
}

/**
 * Writes a DMARC record exactly by the spec's rules (part 1 §5): always `v=DMARC1; p=…`; `sp` only
 * when the subdomain policy is not none; `aspf` and `adkim` only when not r; `pct` only when not
 * 100; rua and ruf as mailto: lists, skipping blank entries; `ri` only when not 86400, `rf` only
 * when not afrf, `fo` only when not 0. The RFC 9989 tags follow sp (np) and pct (t, psd) when set.
 * pct, ri and rf are written when set, with a note that RFC 9989 removed them.
 */
export function generateDmarcRecord(input: DmarcGeneratorInput): DmarcGeneratorResult {
  const tags: string[] = ['v=DMARC1', `p=${input.policy}`];
  const diagnostics: Diagnostic[] = [];
  if (input.subdomainPolicy !== 'none') tags.push(`sp=${input.subdomainPolicy}`);
  if (input.nonExistentPolicy !== undefined) tags.push(`np=${input.nonExistentPolicy}`);
  if (input.alignment.aspf !== 'r') tags.push(`aspf=${input.alignment.aspf}`);
  if (input.alignment.adkim !== 'r') tags.push(`adkim=${input.alignment.adkim}`);
  if (input.percentage !== 100) tags.push(`pct=${input.percentage}`);
  if (input.testMode === true) tags.push('t=y');
  if (input.psd !== undefined && input.psd !== 'u') tags.push(`psd=${input.psd}`);

  for (const key of ['rua', 'ruf'] as const) {
    const uris = input.reporting[key].filter((entry) => entry.trim() !== '').map(dmarcMailtoUri);
    if (uris.length === 0) continue;
    const value = uris.join(',');
    tags.push(`${key}=${value}`);
    for (const uri of parseDmarcUriList(value, 0)) {
      if (uri.problem === null) continue;
      diagnostics.push({
        severity: 'error',
        code: 'DMARC_GENERATOR_ADDRESS',
        message: `${key}: ${uri.uri} is not a valid mailto: address, so receivers cannot send reports to it`,
        requirement: 'MUST',
        rfc: 'RFC 9989 §4.8',
        fix: 'Enter an email address such as dmarc-reports@example.com.',
      });
    }
  }
  if (input.reportingOptions.ri !== 86400) tags.push(`ri=${input.reportingOptions.ri}`);
  if (input.reportingOptions.rf !== 'afrf') tags.push(`rf=${input.reportingOptions.rf}`);
  if (input.reportingOptions.fo !== '0') tags.push(`fo=${input.reportingOptions.fo}`);

  diagnostics.push(...guidance(input));
  const domain = input.domain?.trim() ?? '';
  return { record: tags.join('; '), name: domain === '' ? null : dmarcRecordName(domain), diagnostics };
}

function removedTag(tag: 'pct' | 'ri' | 'rf', value: string | number): Diagnostic {
  const note = dmarcRemovedTagNotes[tag];
  return {
    severity: 'warning',
    code: 'DMARC_REMOVED_TAG',
    message: `${tag}=${value}: ${note.reason}. Receivers still on RFC 7489 honour it`,
    rfc: note.rfc,
    fix: `${note.instead}.`,
  };
}

/** The spec's guidance (part 1 §9) and the notes RFC 9989 adds. */
function guidance(input: DmarcGeneratorInput): Diagnostic[] {
  const notes: Diagnostic[] = [];
  if (input.policy === 'none') {
    notes.push({
      severity: 'info',
      code: 'DMARC_GUIDANCE_MONITOR',
      message:
        'Start with p=none for 3-6 months: receivers only report, so you can find every service that sends mail as your domain and fix its SPF and DKIM before enforcing',
      rfc: 'RFC 9989 §5.1.4',
    });
  } else if (input.policy === 'quarantine') {
    notes.push({
      severity: 'info',
      code: 'DMARC_GUIDANCE_QUARANTINE',
      message:
        'Moving to quarantine: apply it to 25-50% of failing mail first (pct) and raise it as the reports stay clean. RFC 9989 receivers ignore pct and quarantine all failing mail; t=y asks them to hold back while you test',
      rfc: 'RFC 9989 Appendix A.6',
    });
  } else {
    notes.push({
      severity: 'info',
      code: 'DMARC_GUIDANCE_REJECT',
      message:
        'p=reject: domains whose users post to mailing lists SHOULD NOT publish it, and a domain that does MUST sign all its mail with DKIM rather than rely on SPF alone',
      requirement: 'SHOULD NOT',
      rfc: 'RFC 9989 §7.4',
    });
  }
  if (input.percentage !== 100) notes.push(removedTag('pct', input.percentage));
  if (input.reportingOptions.ri !== 86400) notes.push(removedTag('ri', input.reportingOptions.ri));
  if (input.reportingOptions.rf !== 'afrf') notes.push(removedTag('rf', input.reportingOptions.rf));
  if (input.reporting.rua.every((entry) => entry.trim() === '')) {
    notes.push({
      severity: 'warning',
      code: 'DMARC_RUA_MISSING',
      message:
        'No aggregate report address (rua): nobody will send you reports, so you cannot see who sends mail as your domain',
      requirement: 'MUST',
      rfc: 'RFC 9989 §8',
      fix: 'Add an address for aggregate reports.',
    });
  }
  if (input.reportingOptions.fo !== '0' && input.reporting.ruf.every((entry) => entry.trim() === '')) {
    notes.push({
      severity: 'warning',
      code: 'DMARC_FO_WITHOUT_RUF',
      message: 'Failure reporting options (fo) are ignored without a failure report address (ruf)',
      requirement: 'MUST',
      rfc: 'RFC 9989 §4.7',
      fix: 'Add a ruf address or leave fo at 0.',
    });
  }
  if (input.testMode === true && input.policy === 'none') {
    notes.push({
      severity: 'info',
      code: 'DMARC_TEST_MODE',
      message: 't=y has no effect on p=none; it matters once you publish quarantine or reject',
      rfc: 'RFC 9989 §4.7',
    });
  }
  if (input.psd === 'y') {
    notes.push({
      severity: 'warning',
      code: 'DMARC_PSD_Y',
      message:
        'psd=y is only for public suffix operators (like a TLD registry): it makes every subdomain its own Organizational Domain',
      requirement: 'MUST',
      rfc: 'RFC 9989 §5.2',
    });
  }
  return notes;
}
