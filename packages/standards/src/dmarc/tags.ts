/**
 * The DMARC tags of RFC 9989 §4.7 (DMARCbis, which obsoletes RFC 7489 and RFC 9091) and the three
 * tags RFC 9989 removed (Appendix C.5.2), with their value rules (RFC 9989 §4.8 Table 2, RFC 7489
 * §6.4) and defaults.
 */

export const dmarcPolicies = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof dmarcPolicies)[number];

export const dmarcAlignmentModes = ['r', 's'] as const;
export type DmarcAlignment = (typeof dmarcAlignmentModes)[number];

export const dmarcPsdValues = ['y', 'n', 'u'] as const;
export type DmarcPsd = (typeof dmarcPsdValues)[number];

export const dmarcFailureOptions = ['0', '1', 'd', 's'] as const;
export type DmarcFailureOption = (typeof dmarcFailureOptions)[number];

/** Which DMARC specification a reading follows. RFC 9989 is current; RFC 7489 readers are still deployed. */
export type DmarcSpec = 'RFC 9989' | 'RFC 7489';

export type DmarcTagName =
  'v' | 'p' | 'sp' | 'np' | 'adkim' | 'aspf' | 'fo' | 'rua' | 'ruf' | 'psd' | 't' | 'pct' | 'ri' | 'rf';

export interface DmarcTagDefinition {
  name: DmarcTagName;
  /** What the tag says, for diagnostics and the page. */
  title: string;
  /** Value when the tag is absent, as RFC 9989 §4.7 (or RFC 7489 §6.3 for removed tags) gives it. */
  defaultValue?: string;
  /** Whether RFC 7489 defines it. */
  inRfc7489: boolean;
  /** Whether RFC 9989 defines it (`false`: removed by RFC 9989). */
  inRfc9989: boolean;
  /** Section of the current definition. */
  rfc: string;
}

export const dmarcTagDefinitions: Readonly<Record<DmarcTagName, DmarcTagDefinition>> = {
  v: { name: 'v', title: 'Version', inRfc7489: true, inRfc9989: true, rfc: 'RFC 9989 §4.7' },
  p: {
    name: 'p',
    title: 'Domain Owner Assessment Policy',
    inRfc7489: true,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  sp: {
    name: 'sp',
    title: 'Policy for existing subdomains',
    inRfc7489: true,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  np: {
    name: 'np',
    title: 'Policy for non-existent subdomains',
    inRfc7489: false,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  adkim: {
    name: 'adkim',
    title: 'DKIM Identifier Alignment mode',
    defaultValue: 'r',
    inRfc7489: true,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  aspf: {
    name: 'aspf',
    title: 'SPF Identifier Alignment mode',
    defaultValue: 'r',
    inRfc7489: true,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  fo: {
    name: 'fo',
    title: 'Failure reporting options',
    defaultValue: '0',
    inRfc7489: true,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  rua: {
    name: 'rua',
    title: 'Aggregate report destinations',
    inRfc7489: true,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  ruf: {
    name: 'ruf',
    title: 'Failure report destinations',
    inRfc7489: true,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  psd: {
    name: 'psd',
    title: 'Public Suffix Domain flag',
    defaultValue: 'u',
    inRfc7489: false,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  t: {
    name: 't',
    title: 'Test mode',
    defaultValue: 'n',
    inRfc7489: false,
    inRfc9989: true,
    rfc: 'RFC 9989 §4.7',
  },
  pct: {
    name: 'pct',
    title: 'Percentage of failing mail the policy applies to',
    defaultValue: '100',
    inRfc7489: true,
    inRfc9989: false,
    rfc: 'RFC 7489 §6.3',
  },
  ri: {
    name: 'ri',
    title: 'Aggregate report interval',
    defaultValue: '86400',
    inRfc7489: true,
    inRfc9989: false,
    rfc: 'RFC 7489 §6.3',
  },
  rf: {
    name: 'rf',
    title: 'Failure report format',
    defaultValue: 'afrf',
    inRfc7489: true,
    inRfc9989: false,
    rfc: 'RFC 7489 §6.3',
  },
};

export function isDmarcTagName(name: string): name is DmarcTagName {
  return Object.hasOwn(dmarcTagDefinitions, name);
}

/** Whether a tag is one the given specification defines (others MUST be ignored, RFC 9989 §4.7, RFC 7489 §6.3). */
export function isDefinedIn(name: DmarcTagName, spec: DmarcSpec): boolean {
  const definition = dmarcTagDefinitions[name];
  return spec === 'RFC 9989' ? definition.inRfc9989 : definition.inRfc7489;
}

/** The tags RFC 9989 removed, and why (Appendix A.6 and C.5.2). */
export const dmarcRemovedTags = ['pct', 'ri', 'rf'] as const;
export type DmarcRemovedTag = (typeof dmarcRemovedTags)[number];

export interface RemovedTagNote {
  /** Why RFC 9989 removed it. */
  reason: string;
  /** What to do instead. */
  instead: string;
  rfc: string;
}

export const dmarcRemovedTagNotes: Readonly<Record<DmarcRemovedTag, RemovedTagNote>> = {
  pct: {
    reason:
      'RFC 9989 removed pct: operational experience showed receivers applied it inaccurately for any value other than 0 and 100, and inconsistently between implementations',
    instead:
      'Use t=y (test mode) where you would have used pct=0, and leave pct out otherwise; RFC 9989 receivers apply the policy to all failing mail',
    rfc: 'RFC 9989 Appendix A.6',
  },
  ri: {
    reason:
      'RFC 9989 removed ri: the reporting interval moved to the aggregate reporting specification, where receivers send reports at least once every 24 hours',
    instead: 'Leave ri out; receivers choose the interval',
    rfc: 'RFC 9989 Appendix C.5.2',
  },
  rf: {
    reason:
      'RFC 9989 removed rf: failure reports moved to their own specification, which has a single format (AFRF), so there is nothing to choose',
    instead: 'Leave rf out',
    rfc: 'RFC 9989 Appendix C.5.2',
  },
};

/** One level weaker: what RFC 9989 §4.7 says a receiver applies to failing mail when t=y. */
export function testModePolicy(policy: DmarcPolicy): DmarcPolicy {
  return policy === 'reject' ? 'quarantine' : 'none';
}

/** Orders policies by strength: none < quarantine < reject. */
export function policyStrength(policy: DmarcPolicy): number {
  return dmarcPolicies.indexOf(policy);
}
