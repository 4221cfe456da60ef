// The DANE live check's verdict from what was looked up and presented: RFC 6698 §4.1 (usable
// records), RFC 7671 §5 (what each usage checks), RFC 7671 §8 (rollover), and for SMTP between MX
// hosts RFC 7672 §2 (which DNS answers must be secure, and when a sender must not deliver) and §3
// (usages on port 25, name checks). No I/O: the server hands in the DNS answers with their DNSSEC
// status (from the chain of trust) and the chain the server presented.
import type { CryptoProvider } from '../core/crypto.ts';
import { readCertificate, derTimeToIso } from '../core/der.ts';
import type { Diagnostic } from '../core/diagnostic.ts';
import { toHex } from '../core/hex.ts';
import { dnsIdMatches } from '../core/service-identity.ts';
import { countOf, sentences } from '../core/sentences.ts';
import type { SecurityStatus } from '../dnssec/schema.ts';
import {
  fieldAcronym,
  tlsaDigestOctets,
  tlsaMatchingTypes,
  tlsaParametersText,
  tlsaSelectors,
  tlsaUsages,
} from './fields.ts';
import { matchTlsa } from './match.ts';
import { parseTlsa } from './parse.ts';
import { certificateView, type ChainCertificate } from '../core/pem.ts';
import type {
  DaneCheckProtocol,
  DaneCheckRecord,
  DaneCheckResult,
  DaneEndpoint,
  DaneVerdict,
} from './schema.ts';

/** One DNS answer as the check saw it: the records and their DNSSEC status from the chain of trust. */
export interface DaneLookup {
  name: string;
  owner: string;
  status: SecurityStatus;
  /** Presentation lines of the answer's records of the type asked (CNAMEs left out). */
  records: string[];
  failure: string | null;
  /** What DNS answered; `nxdomain` and `nodata` with the denial of existence that came with it. */
  answer: 'ok' | 'nxdomain' | 'nodata' | 'failed';
  denial: { method: 'NSEC' | 'NSEC3'; proven: boolean; message: string } | null;
}

/** A certificate the server presented, with what only the server can read of it. */
export interface PresentedCertificate {
  der: Uint8Array;
  /** The DNS names of its subjectAltName (or its CN when it has none). */
  names: readonly string[];
  /** Position in the presented chain of the certificate whose key signed this one; null when none did. */
  issuer: number | null;
}

export type DaneTlsOutcome =
  | {
      status: 'ok';
      starttls: string | null;
      certificates: PresentedCertificate[];
      /** The chain verifies to a public trust anchor (RFC 5280 §6): what usages 0 and 1 need besides a match. */
      pkixTrusted: boolean;
      /**
       * The data (lower-case hex) of the DANE-TA records given in full (2 0 0, 2 1 0) whose key signed
       * the top certificate of the presented path: a trust anchor the server need not send (RFC 7671 §5.2.2).
       */
      anchorSigned?: readonly string[];
    }
  | { status: 'failed'; starttls: string | null; code: string; message: string }
  | { status: 'not-attempted' };

export interface DaneEndpointInput {
  protocol: DaneCheckProtocol;
  host: string;
  port: number;
  /** The names the certificate must carry for usages 0-2: the host, and for SMTP its CNAME target too. */
  referenceNames: readonly string[];
  addresses: DaneLookup;
  /** Null when not looked up: the host has no address records, so there is nothing to connect to. */
  tlsa: (DaneLookup & { found: 'records' | 'none' | 'failed'; tried: string[] }) | null;
  tls: DaneTlsOutcome;
  now: Date;
}

function bare(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * RFC 6125 §6.4 as RFC 7672 §3.2.3 applies it: a name matches itself, and a wildcard only as the
 * whole left-most label, standing for exactly one label.
 */
export function certificateNameMatches(presented: string, reference: string): boolean {
  return dnsIdMatches(presented, reference);
}

/** Positions from the leaf up, each signed by the next (RFC 5280 §6.1): the path the server's chain makes. */
function issuancePath(certificates: readonly PresentedCertificate[]): number[] {
  const path: number[] = [];
  let at: number | null = certificates.length > 0 ? 0 : null;
  while (at !== null && !path.includes(at)) {
    path.push(at);
    at = certificates[at]?.issuer ?? null;
  }
  return path;
}

function isoOf(certificate: ChainCertificate | undefined, field: 'notBefore' | 'notAfter'): string | null {
  return certificate ? (derTimeToIso(certificate.parts[field]) ?? null) : null;
}

/** Why a certificate is outside its validity period at `now`, or null. */
function validityProblem(
  certificate: ChainCertificate | undefined,
  position: string,
  now: Date,
): string | null {
  const notAfter = isoOf(certificate, 'notAfter');
  const notBefore = isoOf(certificate, 'notBefore');
  if (notAfter !== null && new Date(notAfter) < now) return `${position} expired on ${notAfter.slice(0, 10)}`;
  if (notBefore !== null && new Date(notBefore) > now)
    return `${position} is not valid before ${notBefore.slice(0, 10)}`;
  return null;
}

function positionText(index: number): string {
  return index === 0 ? 'the server certificate' : `certificate ${index + 1} of the chain`;
}

interface RecordContext {
  smtp: boolean;
  referenceNames: readonly string[];
  tls: Extract<DaneTlsOutcome, { status: 'ok' }> | null;
  chain: (ChainCertificate | undefined)[];
  now: Date;
  crypto: CryptoProvider;
}

/** Why a record cannot be used (RFC 6698 §4.1; RFC 7672 §3.1.3 on port 25), or null. */
function unusableReason(
  record: { usage: number; selector: number; matchingType: number; data: Uint8Array },
  smtp: boolean,
): string | null {
  if (!tlsaUsages.some((usage) => usage.value === record.usage))
    return `Usage ${record.usage} (${fieldAcronym(tlsaUsages, record.usage)}) is not one clients know (RFC 6698 §4.1)`;
  if (!tlsaSelectors.some((selector) => selector.value === record.selector))
    return `Selector ${record.selector} (${fieldAcronym(tlsaSelectors, record.selector)}) is not one clients know (RFC 6698 §4.1)`;
  if (!tlsaMatchingTypes.some((type) => type.value === record.matchingType))
    return `Matching type ${record.matchingType} (${fieldAcronym(tlsaMatchingTypes, record.matchingType)}) is not one clients know (RFC 6698 §4.1)`;
  const octets = tlsaDigestOctets[record.matchingType];
  if (octets !== undefined && record.data.length !== octets)
    return `The data has ${record.data.length} octets where ${fieldAcronym(tlsaMatchingTypes, record.matchingType)} gives ${octets}: it can match nothing (RFC 6698 §2.1.3)`;
  if (smtp && (record.usage === 0 || record.usage === 1))
    return `Usage ${record.usage} (${fieldAcronym(tlsaUsages, record.usage)}) is unusable for SMTP between MX hosts, which has no common set of public CAs (RFC 7672 §3.1.3)`;
  return null;
}

/** The reasons a CA-usage record's path or the server certificate fails, for usages 0 and 2. */
function pathProblems(
  anchor: number | 'above-chain',
  context: RecordContext,
  path: readonly number[],
): string[] {
  const problems: string[] = [];
  // RFC 7671 §5.2: the trust anchor's own dates need not hold; what it issued down to the leaf is
  // validated as a PKIX path from that anchor (RFC 5280 §6.1.3), dates included
  for (const index of path.slice(0, anchor === 'above-chain' ? path.length : path.indexOf(anchor))) {
    const problem = validityProblem(context.chain[index], positionText(index), context.now);
    if (problem !== null) problems.push(problem);
  }
  return problems;
}

function nameProblem(context: RecordContext): string | null {
  const names = context.tls?.certificates[0]?.names ?? [];
  const matches = context.referenceNames.some((reference) =>
    names.some((name) => certificateNameMatches(name, reference)),
  );
  if (matches) return null;
  return `The server certificate names ${names.length === 0 ? 'no DNS name' : names.join(', ')}, not ${context.referenceNames.join(' or ')}`;
}

async function evaluateRecord(line: string, context: RecordContext): Promise<DaneCheckRecord | null> {
  const { record } = parseTlsa(line);
  if (record === undefined) return null;
  const base = {
    record: line,
    usage: record.usage,
    selector: record.selector,
    matchingType: record.matchingType,
    parameters: tlsaParametersText(record.usage, record.selector, record.matchingType),
  };
  const unusable = unusableReason(record, context.smtp);
  if (unusable !== null)
    return {
      ...base,
      usable: false,
      unusableReason: unusable,
      matched: false,
      certificate: null,
      problem: null,
    };
  const usable = { ...base, usable: true, unusableReason: null };
  if (context.tls === null) return { ...usable, matched: false, certificate: null, problem: null };
  const matching: number[] = [];
  for (const [index, certificate] of context.chain.entries()) {
    if (certificate === undefined) continue;
    const found = await matchTlsa(record, [certificate], context.crypto);
    if (found.matching.length > 0) matching.push(index);
  }
  const path = issuancePath(context.tls.certificates);
  const endEntity = record.usage === 1 || record.usage === 3;
  // RFC 7671 §5: usages 1 and 3 name the server certificate; 0 and 2 a CA on the path that issued it
  const certificate = endEntity
    ? matching.includes(0)
      ? 0
      : null
    : (matching.find((index) => index > 0 && path.includes(index)) ?? null);
  // RFC 7671 §5.2.2: a DANE-TA key or certificate given in full may be left out of the chain; it
  // then authenticates when it signed the top of the path the server sends
  if (
    certificate === null &&
    record.usage === 2 &&
    record.matchingType === 0 &&
    (context.tls.anchorSigned ?? []).includes(toHex(record.data))
  ) {
    const problems = [nameProblem(context), ...pathProblems('above-chain', context, path)].filter(
      (problem): problem is string => problem !== null,
    );
    return {
      ...usable,
      matched: problems.length === 0,
      certificate: null,
      anchorOutsideChain: true,
      problem: problems.length === 0 ? null : sentences(problems.join('; ')),
    };
  }
  if (certificate === null) {
    // for a CA usage, a CA off the path explains more than the server certificate matching too
    const elsewhere = endEntity ? matching[0] : (matching.find((index) => index > 0) ?? matching[0]);
    const problem =
      elsewhere === undefined
        ? null
        : endEntity
          ? `The data matches ${positionText(elsewhere)}, but usage ${record.usage} names the server certificate`
          : elsewhere === 0
            ? `The data matches the server certificate, but usage ${record.usage} names a CA that issued it`
            : `The data matches ${positionText(elsewhere)}, which did not issue the server certificate`;
    return { ...usable, matched: false, certificate: null, problem };
  }
  const problems: string[] = [];
  // RFC 7671 §5.1: with DANE-EE neither names nor dates are checked
  if (record.usage !== 3) {
    const name = nameProblem(context);
    if (name !== null) problems.push(name);
    if (record.usage === 1) {
      const leaf = validityProblem(context.chain[0], positionText(0), context.now);
      if (leaf !== null) problems.push(leaf);
    } else problems.push(...pathProblems(certificate, context, path));
    if ((record.usage === 0 || record.usage === 1) && !context.tls.pkixTrusted)
      problems.push(
        `Usage ${record.usage} (${fieldAcronym(tlsaUsages, record.usage)}) also needs the chain to verify to a public CA, and it does not`,
      );
  }
  return {
    ...usable,
    matched: problems.length === 0,
    certificate,
    problem: problems.length === 0 ? null : sentences(problems.join('; ')),
  };
}

/** RFC 7671 §8.1 and §8.4: a key or certificate change without an outage needs the next one published first. */
function rolloverOf(records: readonly DaneCheckRecord[]): DaneEndpoint['rollover'] {
  const usable = records.filter((record) => record.usable);
  if (usable.length === 0) return null;
  const endEntity = usable.filter((record) => record.usage === 3).length;
  const anchors = usable.filter((record) => record.usage === 2).length;
  if (endEntity >= 2)
    return {
      ready: true,
      message: `${endEntity} DANE-EE records are published: the next key can be switched to without an outage`,
      rfc: 'RFC 7671 §8.1',
      fix: null,
    };
  if (endEntity >= 1 && anchors >= 1)
    return {
      ready: true,
      message:
        'DANE-EE and DANE-TA records are published together: a new server key from the same CA stays authenticated through the DANE-TA record while the DANE-EE record is updated',
      rfc: 'RFC 7671 §8.4',
      fix: null,
    };
  if (anchors >= 2)
    return {
      ready: true,
      message: `${anchors} DANE-TA records are published: the issuing CA can change without an outage`,
      rfc: 'RFC 7671 §8.4',
      fix: null,
    };
  return {
    ready: false,
    message:
      'Only one usable TLSA record is published: replacing the key or certificate will break authentication until the new record has reached every resolver',
    rfc: 'RFC 7671 §8.1',
    fix: 'Before changing the key, publish a second record for the next key (3 1 1 of its public key) beside the current one, wait at least the TLSA TTL, then switch the server, then remove the old record; or add a 2 1 1 record for the issuing CA.',
  };
}

function lookupFailure(lookup: DaneLookup): string {
  return lookup.failure === null ? '' : `: ${lookup.failure}`;
}

/** Whether a name's absence is proven by DNSSEC (RFC 4035 §5.4, RFC 5155 §8) or merely said by an unsigned zone. */
function denialText(lookup: DaneLookup): string {
  if (lookup.status === 'secure' && lookup.denial?.proven)
    return `a secure denial: signed ${lookup.denial.method} records prove it`;
  if (lookup.status === 'insecure') return 'not proven by DNSSEC: the zone is unsigned';
  return `not proven by DNSSEC${lookup.denial === null ? '' : `: ${lookup.denial.message}`}`;
}

/** '… does not exist (NXDOMAIN, …)' or '… has no A or AAAA records (…)' for a host whose address lookup came back empty. */
function noAddressText(host: string, addresses: DaneLookup): string {
  return addresses.answer === 'nxdomain'
    ? `${host} does not exist (NXDOMAIN, ${denialText(addresses)})`
    : `${host} has no A or AAAA records (${denialText(addresses)})`;
}

/** An endpoint whose host has no address: no TLSA was looked up and no connection made. */
export function isUnreachable(endpoint: Pick<DaneEndpoint, 'tlsa'>): boolean {
  return endpoint.tlsa === null;
}

/** What the parties of the protocol do: senders and mail for SMTP, clients for every other protocol. */
function partiesOf(protocol: DaneCheckProtocol) {
  return protocol === 'smtp'
    ? {
        refuse: 'Senders must not deliver mail to this host',
        defer: 'Senders defer mail to this host until DNS answers; this check has no verdict',
        unreachable: 'Senders cannot reach this host and skip it',
      }
    : {
        refuse: 'Clients must not connect to it',
        defer:
          'Clients that use DANE cannot authenticate the server until DNS answers; this check has no verdict',
        unreachable: 'Clients cannot connect to it',
      };
}

function reason(
  severity: Diagnostic['severity'],
  code: string,
  message: string,
  rfc: string,
  fix?: string,
): Diagnostic {
  return { severity, code, message, rfc, ...(fix === undefined ? {} : { fix }) };
}

/** What the check's verdict is for one server, and why (RFC 7672 §2.1-§3.2, RFC 7671 §5). */
export async function evaluateDaneEndpoint(
  input: DaneEndpointInput,
  crypto: CryptoProvider,
): Promise<DaneEndpoint> {
  const smtp = input.protocol === 'smtp';
  const tlsOk = input.tls.status === 'ok' ? input.tls : null;
  const chain = (tlsOk?.certificates ?? []).map((presented): ChainCertificate | undefined => {
    const parts = readCertificate(presented.der);
    return parts.ok ? { der: presented.der, parts: parts.value } : undefined;
  });
  const context: RecordContext = {
    smtp,
    referenceNames: input.referenceNames,
    tls: tlsOk,
    chain,
    now: input.now,
    crypto,
  };
  const evaluated = await Promise.all(
    (input.tlsa?.records ?? []).map((line) => evaluateRecord(line, context)),
  );
  const records = evaluated.filter((record): record is DaneCheckRecord => record !== null);
  const tls: DaneEndpoint['tls'] = {
    status: input.tls.status,
    starttls: input.tls.status === 'not-attempted' ? null : input.tls.starttls,
    code: input.tls.status === 'failed' ? input.tls.code : null,
    message: input.tls.status === 'failed' ? input.tls.message : null,
    certificates: chain.flatMap((certificate, index) =>
      certificate === undefined
        ? []
        : [{ ...certificateView(certificate, index), names: [...(tlsOk?.certificates[index]?.names ?? [])] }],
    ),
    pkixTrusted: tlsOk?.pkixTrusted ?? null,
  };
  const { verdict, reasons } = endpointVerdict(input, records);
  return {
    host: bare(input.host),
    port: input.port,
    addresses: input.addresses,
    tlsa: input.tlsa,
    records,
    tls,
    referenceNames: input.referenceNames.map(bare),
    verdict,
    reasons,
    rollover: verdict === 'pass' || verdict === 'fail' ? rolloverOf(records) : null,
  };
}

function endpointVerdict(
  input: DaneEndpointInput,
  records: readonly DaneCheckRecord[],
): { verdict: DaneVerdict; reasons: Diagnostic[] } {
  const smtp = input.protocol === 'smtp';
  const parties = partiesOf(input.protocol);
  const host = bare(input.host);
  if (input.addresses.status === 'bogus')
    return {
      verdict: 'fail',
      reasons: [
        reason(
          'error',
          'DANE_ADDRESS_BOGUS',
          sentences(
            `The address records of ${host} fail DNSSEC validation${lookupFailure(input.addresses)}`,
            parties.refuse,
          ),
          'RFC 7672 §2.1.1',
          'Fix the signatures of the zone holding the host’s A and AAAA records (see the DNSSEC chain).',
        ),
      ],
    };
  if (input.addresses.status === 'indeterminate')
    return {
      verdict: 'indeterminate',
      reasons: [
        reason(
          'warning',
          'DANE_ADDRESS_UNANSWERED',
          sentences(
            `The address records of ${host} could not be validated${lookupFailure(input.addresses)}`,
            parties.defer,
          ),
          smtp ? 'RFC 7672 §2.1.1' : 'RFC 6698 §4.1',
        ),
      ],
    };
  if (input.tlsa === null || input.addresses.records.length === 0)
    return {
      verdict: 'not-applicable',
      reasons: [
        reason(
          'warning',
          input.addresses.answer === 'nxdomain' ? 'DANE_HOST_NXDOMAIN' : 'DANE_HOST_NO_ADDRESS',
          sentences(
            noAddressText(host, input.addresses),
            `${parties.unreachable}: no TLSA records were looked up and no connection was made`,
          ),
          smtp ? 'RFC 5321 §5.1, RFC 7672 §2.2.2' : 'RFC 6698 §4.1',
          input.addresses.answer === 'nxdomain'
            ? `Check ${host} for typos; if it is right, create it with A or AAAA records${smtp ? ', or remove it from the MX records' : ''}.`
            : `Publish A or AAAA records for ${host}${smtp ? ', or remove it from the MX records' : ''}.`,
        ),
      ],
    };
  const tlsa = input.tlsa;
  const owner = tlsa.owner || tlsa.name;
  if (smtp && input.addresses.status === 'insecure')
    return {
      verdict: 'not-applicable',
      reasons: [
        reason(
          'info',
          'DANE_ADDRESS_INSECURE',
          `The address records of ${host} are not signed (insecure), so senders do not look up TLSA for it: DANE does not apply.`,
          'RFC 7672 §2.2.2',
          `Sign the zone of ${host} and publish its DS record at the parent, then publish TLSA at ${owner}.`,
        ),
      ],
    };
  if (tlsa.status === 'bogus')
    return {
      verdict: 'fail',
      reasons: [
        reason(
          'error',
          'DANE_TLSA_BOGUS',
          sentences(
            `The TLSA answer at ${owner} fails DNSSEC validation${lookupFailure(tlsa)}`,
            smtp ? 'Senders must treat it as an attack: do not deliver mail to this host' : parties.refuse,
          ),
          smtp ? 'RFC 7672 §2.1.1' : 'RFC 6698 §4.1',
          'Fix the zone’s signatures or its DS at the parent (see the DNSSEC chain); a bogus answer is treated as an attack.',
        ),
      ],
    };
  if (tlsa.status === 'indeterminate' || tlsa.found === 'failed')
    return {
      verdict: 'indeterminate',
      reasons: [
        reason(
          'warning',
          'DANE_TLSA_UNANSWERED',
          sentences(
            `The TLSA records at ${owner} could not be looked up${lookupFailure(tlsa)}`,
            parties.defer,
          ),
          smtp ? 'RFC 7672 §2.1.1' : 'RFC 6698 §4.1',
        ),
      ],
    };
  if (tlsa.status === 'insecure')
    return {
      verdict: 'not-applicable',
      reasons: [
        reason(
          'info',
          tlsa.found === 'records' ? 'DANE_TLSA_INSECURE' : 'DANE_NO_TLSA_INSECURE',
          tlsa.found === 'records'
            ? `TLSA records are published at ${owner}, but the zone is not signed (insecure): clients ignore them.`
            : `The zone of ${owner} is not signed, and publishes no TLSA: DANE does not apply.`,
          'RFC 6698 §4.1, RFC 7672 §2.2',
          'Sign the zone with DNSSEC and publish its DS record at the parent: TLSA records count only in a secure zone.',
        ),
      ],
    };
  if (tlsa.found === 'none')
    return {
      verdict: 'not-applicable',
      reasons: [
        reason(
          'info',
          'DANE_NO_TLSA',
          `No TLSA records at ${tlsa.tried.join(' or ')} (the zone is signed and proves there are none): DANE does not apply.`,
          smtp ? 'RFC 7672 §2.2' : 'RFC 6698 §3',
          `To protect this service with DANE, publish a TLSA record at ${tlsa.tried.at(-1) ?? owner}, e.g. 3 1 1 of the server’s public key (the generator makes it).`,
        ),
      ],
    };
  const reasons: Diagnostic[] = [];
  const usable = records.filter((record) => record.usable);
  for (const record of records.filter((candidate) => !candidate.usable))
    reasons.push(
      reason(
        'warning',
        'DANE_TLSA_UNUSABLE',
        sentences(`${record.parameters} is unusable and ignored: ${record.unusableReason ?? ''}`),
        smtp && (record.usage === 0 || record.usage === 1) ? 'RFC 7672 §3.1.3' : 'RFC 6698 §4.1',
        smtp && (record.usage === 0 || record.usage === 1)
          ? `Replace it with a DANE-EE (3 ${record.selector} ${record.matchingType}) or DANE-TA (2 ${record.selector} ${record.matchingType}) record.`
          : 'Remove it, or replace it with a 3 1 1 record of the server’s key.',
      ),
    );
  if (usable.length === 0)
    return {
      verdict: 'not-applicable',
      reasons: [
        ...reasons,
        reason(
          'warning',
          'DANE_TLSA_ALL_UNUSABLE',
          smtp
            ? `Every TLSA record at ${owner} is unusable: senders cannot authenticate ${host}, though they still insist on TLS.`
            : `Every TLSA record at ${owner} is unusable: clients cannot authenticate ${host} with DANE.`,
          smtp ? 'RFC 7672 §2.2' : 'RFC 6698 §4.1',
          'Publish a usable record: 3 1 1 of the server’s public key is the one RFC 7671 §5.1 recommends.',
        ),
      ],
    };
  if (input.tls.status !== 'ok') {
    const why = input.tls.status === 'failed' ? input.tls.message : 'no connection was made';
    return {
      verdict: 'fail',
      reasons: [
        ...reasons,
        reason(
          'error',
          'DANE_TLS_FAILED',
          sentences(
            `${host} publishes usable TLSA records, so TLS is required, but ${input.tls.status === 'failed' && input.tls.starttls ? `STARTTLS on port ${input.port}` : `TLS on port ${input.port}`} failed: ${why}`,
            parties.refuse,
          ),
          smtp ? 'RFC 7672 §2.2' : 'RFC 6698 §4.1',
          `Make the server answer TLS${smtp ? ' (STARTTLS)' : ''} on port ${input.port}, or remove the TLSA records before taking TLS away.`,
        ),
      ],
    };
  }
  const matched = usable.filter((record) => record.matched);
  if (matched.length > 0) {
    const first = matched[0]!;
    reasons.push(
      reason(
        'info',
        'DANE_MATCH',
        `${first.parameters} (${first.usage} ${first.selector} ${first.matchingType}) matches ${positionText(first.certificate ?? 0)}${matched.length > 1 ? `, and ${countOf(matched.length - 1, 'more record')} too` : ''}: ${host} is authenticated by DANE.`,
        first.usage === 3 ? 'RFC 7671 §5.1' : first.usage === 2 ? 'RFC 7671 §5.2' : 'RFC 6698 §2.1.1',
      ),
    );
    return { verdict: 'pass', reasons };
  }
  for (const record of usable.filter((candidate) => candidate.problem !== null))
    reasons.push(
      reason(
        'error',
        'DANE_MATCH_REJECTED',
        sentences(`${record.parameters}: ${record.problem ?? ''}`),
        record.usage === 2 ? 'RFC 7671 §5.2, RFC 7672 §3.2.2' : 'RFC 7671 §5',
        record.certificate === null
          ? `Use usage ${record.usage === 3 || record.usage === 1 ? '2 for a CA certificate' : '3 for the server certificate'}, or generate the record from the certificate the server presents.`
          : `Give the server certificate one of the names ${input.referenceNames.join(', ')} and keep it within its validity period, or publish a 3 1 1 record, which checks neither.`,
      ),
    );
  reasons.push(
    reason(
      'error',
      'DANE_NO_MATCH',
      sentences(
        usable.length === 1
          ? `The one usable TLSA record at ${owner} does not authenticate the chain ${host} presents`
          : `None of the ${countOf(usable.length, 'usable TLSA record')} at ${owner} authenticates the chain ${host} presents`,
        parties.refuse,
      ),
      smtp ? 'RFC 7672 §3.1, RFC 7671 §5' : 'RFC 6698 §2.1, RFC 7671 §5',
      'Generate the record again from the certificate the server presents now (the generator can fetch it), publish it beside the old one, wait the TTL, then remove the old one (RFC 7671 §8.1).',
    ),
  );
  return { verdict: 'fail', reasons };
}

export interface DaneMxInput {
  lookup: DaneLookup;
  hosts: { preference: number; host: string }[];
  /** No MX records (NODATA): the domain itself is checked, and is its implicit MX if it has addresses. */
  implicit: boolean;
}

/** The check's verdict over all endpoints: every MX host must pass, as one unprotected host opens a downgrade. */
export function summariseDaneCheck(input: {
  host: string;
  port: number;
  protocol: DaneCheckProtocol;
  mx: DaneMxInput | null;
  endpoints: DaneEndpoint[];
  now: Date;
}): DaneCheckResult {
  const host = bare(input.host);
  const reachable = input.endpoints.filter((endpoint) => !isUnreachable(endpoint));
  // RFC 5321 §5.1: the domain is its own mail host only when it has an address record
  const implicit = input.mx !== null && input.mx.implicit && reachable.length > 0;
  const mx = input.mx === null ? null : { ...input.mx.lookup, hosts: input.mx.hosts, implicit };
  const base = {
    host,
    port: input.port,
    protocol: input.protocol,
    mx,
    endpoints: input.endpoints,
    checkedAt: input.now.toISOString(),
  };
  const done = (verdict: DaneVerdict, summary: string, reasons: Diagnostic[]): DaneCheckResult => ({
    ...base,
    verdict,
    summary,
    reasons,
  });
  const mxReasons: Diagnostic[] = [];
  if (input.mx !== null) {
    const lookup = input.mx.lookup;
    if (lookup.status === 'bogus')
      return done('fail', `The MX records of ${host} fail DNSSEC validation: senders must not deliver.`, [
        reason(
          'error',
          'DANE_MX_BOGUS',
          `The MX answer for ${host} fails DNSSEC validation${lookupFailure(lookup)}.`,
          'RFC 7672 §2.1.1',
          'Fix the zone’s signatures or its DS at the parent (see the DNSSEC chain).',
        ),
      ]);
    if (lookup.status === 'indeterminate')
      return done('indeterminate', `The MX records of ${host} could not be looked up.`, [
        reason(
          'warning',
          'DANE_MX_UNANSWERED',
          sentences(
            `The MX records of ${host} could not be validated${lookupFailure(lookup)}`,
            'Senders defer mail until DNS answers; this check has no verdict',
          ),
          'RFC 7672 §2.1.1',
        ),
      ]);
    if (lookup.answer === 'nxdomain')
      return done(
        'not-applicable',
        `${host} does not exist (NXDOMAIN): it has no mail host, and DANE does not apply.`,
        [
          reason(
            'warning',
            'DANE_DOMAIN_NXDOMAIN',
            sentences(
              `${host} does not exist (NXDOMAIN, ${denialText(lookup)})`,
              'Mail to it cannot be delivered, so there are no MX hosts to check: no TLSA records were looked up and no connection was made',
            ),
            lookup.status === 'secure' ? 'RFC 1035 §4.1.1, RFC 4035 §5.4' : 'RFC 1035 §4.1.1',
            `Check ${host} for typos; if it is yours, create it in its zone with MX records naming your mail servers.`,
          ),
        ],
      );
    if (input.mx.hosts.length === 0 && !input.mx.implicit)
      return done('not-applicable', `${host} accepts no mail (null MX): DANE does not apply.`, [
        reason(
          'info',
          'DANE_NULL_MX',
          `${host} publishes a null MX ("0 ."): it receives no mail.`,
          'RFC 7505 §3',
        ),
      ]);
    if (input.mx.implicit && reachable.length === 0)
      return done('not-applicable', `${host} has no mail host: no MX records and no A or AAAA records.`, [
        reason(
          'warning',
          'DANE_NO_MAIL_HOST',
          sentences(
            `${host} has no MX records and no A or AAAA records (${denialText(lookup)})`,
            'The implicit MX applies only to a domain with an address, so mail to it cannot be delivered and DANE does not apply',
          ),
          'RFC 5321 §5.1',
          `Publish MX records naming your mail servers, each with A or AAAA records; or a null MX ("0 .") if ${host} takes no mail (RFC 7505).`,
        ),
      ]);
    if (implicit)
      mxReasons.push(
        reason(
          'info',
          'DANE_IMPLICIT_MX',
          `${host} has no MX records: senders deliver to ${host} itself, as its implicit MX.`,
          'RFC 5321 §5.1',
        ),
      );
    const listed = new Set(input.mx.hosts.map((entry) => entry.host)).size;
    if (listed > input.endpoints.length && input.endpoints.length > 0)
      mxReasons.push(
        reason(
          'info',
          'DANE_MX_NOT_ALL_CHECKED',
          `${host} lists ${listed} MX hosts; ${input.endpoints.length === 1 ? 'only the most preferred was' : `the ${input.endpoints.length} most preferred were`} checked.`,
          'RFC 7672 §2.2.1',
        ),
      );
    if (lookup.status === 'insecure')
      mxReasons.push(
        reason(
          'warning',
          'DANE_MX_INSECURE',
          `The MX records of ${host} are not signed: an attacker can replace the MX hosts, and DANE of the hosts below protects only mail that reaches them.`,
          'RFC 7672 §2.2.1',
          `Sign ${host} with DNSSEC and publish its DS record at the parent.`,
        ),
      );
  }
  const what = input.protocol === 'smtp' ? 'MX host' : 'server';
  const unreachable = input.endpoints.filter(isUnreachable).map((endpoint) => endpoint.host);
  if (reachable.length === 0 && unreachable.length > 0) {
    if (input.mx === null || input.mx.implicit)
      return done(
        'not-applicable',
        input.endpoints[0]?.addresses.answer === 'nxdomain'
          ? `${host} does not exist (NXDOMAIN): there is no server to check, and DANE does not apply.`
          : `${host} has no A or AAAA records: there is no server to connect to, and DANE does not apply.`,
        mxReasons,
      );
    return done('not-applicable', `No MX host of ${host} has an address: mail to it cannot be delivered.`, [
      ...mxReasons,
      reason(
        'warning',
        'DANE_NO_REACHABLE_MX',
        sentences(
          unreachable.length === 1
            ? `The only MX host of ${host}, ${unreachable[0] ?? ''}, has no A or AAAA record`
            : `None of the ${unreachable.length} MX hosts of ${host} has an A or AAAA record`,
          'Senders cannot deliver mail to the domain, and DANE does not apply',
        ),
        'RFC 5321 §5.1',
        `Publish A or AAAA records for ${unreachable.join(', ')}, or list MX hosts that have them.`,
      ),
    ]);
  }
  if (unreachable.length > 0)
    mxReasons.push(
      reason(
        'warning',
        'DANE_MX_UNREACHABLE',
        sentences(
          `${unreachable.join(', ')} ${unreachable.length === 1 ? 'has' : 'have'} no A or AAAA records`,
          `Senders skip ${unreachable.length === 1 ? 'it' : 'them'}; the other MX hosts decide the verdict`,
        ),
        'RFC 5321 §5.1',
        `Publish A or AAAA records for ${unreachable.join(', ')}, or remove ${unreachable.length === 1 ? 'it' : 'them'} from the MX records.`,
      ),
    );
  const verdicts = reachable.map((endpoint) => endpoint.verdict);
  const count = (verdict: DaneVerdict) => verdicts.filter((candidate) => candidate === verdict).length;
  const total = reachable.length;
  const plural = (n: number) => countOf(n, what);
  if (count('fail') > 0)
    return done(
      'fail',
      `DANE fails for ${total === 1 ? `the ${what}` : `${plural(count('fail'))} of ${total}`} of ${host}: ${input.protocol === 'smtp' ? 'senders must not deliver there' : 'clients must not connect'}.`,
      mxReasons,
    );
  if (count('indeterminate') > 0)
    return done(
      'indeterminate',
      `DANE could not be checked for ${plural(count('indeterminate'))} of ${total}.`,
      mxReasons,
    );
  if (count('pass') === total)
    return done(
      'pass',
      `DANE authenticates ${total === 1 ? `the ${what}` : `all ${plural(total)}`} of ${host}.`,
      mxReasons,
    );
  if (count('pass') === 0)
    return done(
      'not-applicable',
      `DANE does not apply to ${host}: no ${what} has usable TLSA records in a signed zone.`,
      mxReasons,
    );
  const unprotected = reachable
    .filter((endpoint) => endpoint.verdict === 'not-applicable')
    .map((endpoint) => endpoint.host);
  return done(
    'fail',
    `Only ${count('pass')} of ${plural(total)} ${count('pass') === 1 ? 'is' : 'are'} protected by DANE.`,
    [
      ...mxReasons,
      reason(
        'error',
        'DANE_PARTIAL',
        `${unprotected.join(', ')} ${unprotected.length === 1 ? 'has' : 'have'} no usable TLSA in a signed zone: an attacker who blocks the protected hosts gets mail delivered without authentication.`,
        'RFC 7672 §2.2',
        `Publish TLSA records for ${unprotected.join(', ')} in a signed zone, as for the others.`,
      ),
    ],
  );
}
