// The MTA-STS live check (RFC 8461): the record and policy as a sender discovers them, the MX
// hosts, and each MX host's STARTTLS and certificate judged as a sending MTA applying the policy
// would (§4.1 MX matching, §4.2 certificate validation, §5 enforce and testing).
import {
  matchMxToPolicy,
  mtaStsPolicyUrl,
  mtaStsRecordName,
  selectMtaStsRecord,
  validateMtaStsPolicy,
  validateMtaStsRecord,
  type Diagnostic,
  type MtaStsCheckResultData as MtaStsCheckResult,
  type MtaStsMode,
} from '@rfckit/standards';
import type { NetSession } from '../../net/layer.ts';
import { lookupMx, type MxHost } from '../../mail-transport/mx.ts';
import {
  fetchMtaStsPolicy,
  lookupMtaStsRecord,
  type MtaStsPolicyFetch,
} from '../../mail-transport/mta-sts-policy.ts';
import { runSmtpSession, type SmtpSessionResult } from '../../mail-transport/smtp-session.ts';
import { HttpError } from '../../plugins/errors.ts';
import { lookupFailed, unlessResolverFailed } from '../could-not-check.ts';
import { asTargetProblem } from '../target-problem.ts';

/**
 * Time limits of each MX host's SMTP session (all hosts at once): a sender waits longer (RFC 5321
 * §4.5.3.2), a check a person waits for does not.
 */
export const MTA_STS_SMTP_TIMEOUTS = {
  connectMs: 10_000,
  bannerMs: 20_000,
  replyMs: 15_000,
  handshakeMs: 15_000,
};

/** Our EHLO name in the sessions with the MX hosts. */
const CLIENT_NAME = 'rfckit.check';

type HostResult = MtaStsCheckResult['mx']['hosts'][number];

export interface MtaStsCheckContext {
  net: NetSession;
  signal: AbortSignal;
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** The problems a sender applying the policy finds with one MX host (RFC 8461 §4.1, §4.2), as diagnostics. */
function hostProblems(
  mx: MxHost,
  matched: string | null,
  patterns: readonly string[],
  session: SmtpSessionResult | null,
  failedStep: string | null,
): Omit<Diagnostic, 'severity'>[] {
  const problems: Omit<Diagnostic, 'severity'>[] = [];
  if (matched === null)
    problems.push({
      code: 'MTASTS_MX_NOT_IN_POLICY',
      message: `${mx.host} matches none of the policy's mx patterns (${patterns.join(', ') || 'none'}); a sender applying the policy does not deliver to it.`,
      requirement: 'MUST',
      rfc: 'RFC 8461 §4.1',
      fix: `Add "mx: ${mx.host}" (or a wildcard covering it) to the policy, change its id in the TXT record, or remove the MX record.`,
    });
  if (session === null) return problems;
  if (!session.starttlsAdvertised || session.tls === null) {
    problems.push({
      code: 'MTASTS_MX_NO_STARTTLS',
      message: session.starttlsAdvertised
        ? `${mx.host} advertises STARTTLS but no TLS session was established${failedStep === null ? '' : `: ${failedStep}`}.`
        : `${mx.host} does not advertise STARTTLS; a sender applying the policy does not deliver to it without TLS.`,
      requirement: 'MUST',
      rfc: 'RFC 8461 §4.2, RFC 3207',
      fix: `Enable STARTTLS on ${mx.host} port 25 with a certificate valid for that name.`,
    });
    return problems;
  }
  const { tls } = session;
  if (!tls.trusted)
    problems.push({
      code: 'MTASTS_MX_CERT_UNTRUSTED',
      message: `The certificate of ${mx.host} does not chain to a trusted root${tls.trustError === null ? '' : ` (${tls.trustError})`}.`,
      requirement: 'MUST',
      rfc: 'RFC 8461 §4.2',
      fix: `Install on ${mx.host} a certificate from a public CA, sent with its intermediate certificates.`,
    });
  if (!tls.nameMatches) {
    const names = tls.chain[0]?.dnsNames.join(', ');
    problems.push({
      code: 'MTASTS_MX_CERT_NAME',
      message: `The certificate of ${mx.host} is not valid for that name${names ? ` (it covers ${names})` : ''}.`,
      requirement: 'MUST',
      rfc: 'RFC 8461 §4.2, RFC 6125',
      fix: `Install on ${mx.host} a certificate whose subjectAltName holds ${mx.host} (or a wildcard covering it).`,
    });
  }
  if (tls.expired)
    problems.push({
      code: 'MTASTS_MX_CERT_EXPIRED',
      message: `The certificate of ${mx.host} is not valid now (valid ${tls.chain[0]?.notBefore ?? '?'} to ${tls.chain[0]?.notAfter ?? '?'}).`,
      requirement: 'MUST',
      rfc: 'RFC 8461 §4.2',
      fix: `Renew the certificate of ${mx.host}.`,
    });
  return problems;
}

/**
 * A host no sender gets to EHLO with: no connection, no greeting within our limit, or a greeting
 * other than 220 (RFC 5321 §3.1 554 "no SMTP service here", §4.2.1 421). STARTTLS was never reached,
 * so whether the host offers it is unknown.
 */
function sessionNotStarted(host: string, session: SmtpSessionResult): Omit<Diagnostic, 'severity'> | null {
  const connect = session.steps.find((step) => step.kind === 'connect');
  const banner = session.steps.find((step) => step.kind === 'banner');
  let what: string;
  if (connect === undefined || !connect.ok)
    what = `could not be connected to on port 25 (${connect?.error ?? 'no answer'})`;
  else if (banner === undefined) return null;
  else if (banner.code === null) what = `accepted the connection but ${banner.error ?? 'sent no greeting'}`;
  else if (banner.code !== 220)
    what = `greeted with ${banner.code} ("${banner.reply.join(' ').slice(0, 200)}") instead of 220, refusing the session`;
  else return null;
  return {
    code: 'MTASTS_MX_UNREACHABLE',
    message: `${host} ${what}; no SMTP session was possible, so its STARTTLS and certificate are unknown.`,
    rfc: 'RFC 5321 §3.1, §4.5.3.2.1',
    fix: `Make ${host} accept connections on port 25 from the Internet and greet with 220, or remove its MX record.`,
  };
}

/** The first step of a session that failed, in its own words. */
function failedStepOf(session: SmtpSessionResult): string | null {
  const step = session.steps.find((candidate) => !candidate.ok);
  return step === undefined ? null : (step.error ?? `${step.kind} failed`);
}

async function sessionWith(context: MtaStsCheckContext, host: string): Promise<SmtpSessionResult> {
  return runSmtpSession(context.net, {
    host,
    port: 25,
    mode: 'starttls',
    clientName: CLIENT_NAME,
    signal: context.signal,
    timeouts: MTA_STS_SMTP_TIMEOUTS,
  });
}

/** One MX host: matched against the patterns, its session, judged under `mode` (null: no usable policy). */
async function checkHost(
  context: MtaStsCheckContext,
  mx: MxHost,
  policy: { mode: MtaStsMode; patterns: string[] } | null,
): Promise<HostResult> {
  const diagnostics: Diagnostic[] = [];
  if (mx.cnameTarget !== null)
    diagnostics.push({
      severity: 'warning',
      code: 'MTASTS_MX_IS_CNAME',
      message: `The MX host ${mx.host} is an alias (CNAME) of ${mx.cnameTarget}. Many senders follow it, but an MX must name a host with address records; the policy and the certificate are matched against ${mx.host}.`,
      requirement: 'MUST NOT',
      rfc: 'RFC 5321 §5.1, RFC 2181 §10.3',
      fix: `Point the MX record at ${mx.cnameTarget} (and list it in the policy) instead of the alias.`,
    });
  const matched = policy === null ? null : matchMxToPolicy(mx.host, policy.patterns);
  let session: SmtpSessionResult | null = null;
  if (mx.problem !== null)
    diagnostics.push({
      severity: 'warning',
      code: 'MTASTS_MX_NO_ADDRESS',
      message: `${mx.host} was not contacted: ${mx.problem}.`,
      rfc: 'RFC 5321 §5.1',
      fix: `Publish an A or AAAA record for ${mx.host}, or remove its MX record.`,
    });
  else {
    try {
      session = await sessionWith(context, mx.host);
    } catch (error) {
      if (context.signal.aborted || !(error instanceof HttpError)) throw error;
      // the guard refused the host's address: this host cannot be checked, the others can
      diagnostics.push({
        severity: 'warning',
        code: 'MTASTS_MX_REFUSED',
        message: `${mx.host} was not contacted: ${error.message}.`,
        fix: `Publish a public address for ${mx.host}; senders on the Internet cannot reach a private one.`,
      });
    }
  }
  const notStarted = session === null ? null : sessionNotStarted(mx.host, session);
  if (notStarted !== null) session = null;
  const applies = policy !== null && policy.mode !== 'none';
  // without a policy, a host no sender can talk to is still worth saying, but nothing is enforced
  if (notStarted !== null && !applies) diagnostics.push({ ...notStarted, severity: 'warning' });
  const problems = applies
    ? [
        ...hostProblems(
          mx,
          matched,
          policy.patterns,
          session,
          session === null ? null : failedStepOf(session),
        ),
        ...(notStarted === null ? [] : [notStarted]),
      ]
    : [];
  const enforced = policy?.mode === 'enforce';
  for (const problem of problems)
    diagnostics.push(
      enforced
        ? { ...problem, severity: 'error', message: `${problem.message} Mail to ${mx.host} would fail.` }
        : problem === notStarted
          ? { ...problem, severity: 'warning' }
          : {
              ...problem,
              severity: 'warning',
              message: `${problem.message} In testing mode mail is still delivered and the failure reported (TLS-RPT); in enforce mode it would fail.`,
              rfc: `${problem.rfc ?? 'RFC 8461'}, RFC 8461 §5`,
            },
    );
  const tls = session?.tls ?? null;
  return {
    host: mx.host,
    preference: mx.preference,
    addresses: mx.addresses,
    cnameTarget: mx.cnameTarget,
    matchedPattern: matched,
    starttls: session === null ? null : session.starttlsAdvertised && tls !== null,
    tlsVersion: tls?.version ?? null,
    trusted: tls?.trusted ?? null,
    nameMatches: tls?.nameMatches ?? null,
    expired: tls?.expired ?? null,
    wouldFail: enforced && problems.length > 0,
    diagnostics,
  };
}

function policyPart(fetched: MtaStsPolicyFetch | null, url: string): MtaStsCheckResult['policy'] {
  const base = {
    url,
    fetched: fetched?.body != null,
    status: fetched?.status ?? null,
    contentType: fetched?.contentType ?? null,
    bytes: fetched?.bytes ?? 0,
    raw: fetched?.body ?? null,
    mode: null,
    maxAge: null,
    mx: [],
    diagnostics: [] as Diagnostic[],
  };
  if (fetched === null) return base;
  if (fetched.body === null) return { ...base, diagnostics: fetched.diagnostics };
  const validated = validateMtaStsPolicy(fetched.body);
  const parsed = validated.parsed;
  return {
    ...base,
    mode: validated.valid ? (parsed?.mode ?? null) : null,
    maxAge: parsed?.maxAge ?? null,
    mx: parsed?.mx ?? [],
    diagnostics: [...fetched.diagnostics, ...validated.diagnostics],
  };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * `POST /v1/mta-sts/check`: a refused policy host is a 422; when our own resolver failed on the
 * record, which every verdict hangs on, we could not check (503); every other DNS and remote
 * failure is in the result.
 */
export async function checkMtaSts(
  body: { domain: string },
  context: MtaStsCheckContext,
): Promise<MtaStsCheckResult> {
  try {
    // the MX hosts are half the verdict: our resolver failing on them is no verdict either
    return await unlessResolverFailed(
      context.net.dns,
      check(bare(body.domain), context),
      (result, failed) =>
        lookupFailed(failed, result.record.name) ||
        (result.mx.dnsError !== null && lookupFailed(failed, result.domain)),
    );
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw asTargetProblem(error);
  }
}

async function check(domain: string, context: MtaStsCheckContext): Promise<MtaStsCheckResult> {
  const { net, signal } = context;
  const [lookup, mx] = await Promise.all([
    lookupMtaStsRecord(net, domain, signal),
    lookupMx(net, domain, signal),
  ]);
  const diagnostics: Diagnostic[] = [];
  const recordDiagnostics: Diagnostic[] = [];
  const selection = selectMtaStsRecord(lookup.records);
  const single = selection.record;
  let recordId: string | null = null;
  if (lookup.dnsError !== null)
    recordDiagnostics.push({
      severity: 'error',
      code: 'MTASTS_RECORD_DNS_ERROR',
      message: `${lookup.dnsError}; senders that cannot read the record apply no policy they have not cached.`,
      rfc: 'RFC 8461 §3.1',
      fix: `Make the DNS servers of ${domain} answer for ${lookup.name}.`,
    });
  else if (selection.outcome === 'multiple')
    recordDiagnostics.push({
      severity: 'error',
      code: 'MTASTS_RECORD_MULTIPLE',
      message: `${lookup.name} holds ${lookup.records.length} records starting with v=STSv1; with more than one, senders assume the domain has no MTA-STS policy.`,
      requirement: 'MUST',
      rfc: 'RFC 8461 §3.1',
      fix: `Keep exactly one v=STSv1 TXT record at ${lookup.name}.`,
    });
  else if (single !== null) {
    const validated = validateMtaStsRecord(single);
    recordDiagnostics.push(...validated.diagnostics);
    recordId = validated.valid ? (validated.parsed?.id ?? null) : null;
  }
  const record = {
    name: lookup.name,
    found: lookup.records.length > 0,
    raw: single,
    id: recordId,
    diagnostics: recordDiagnostics,
  };
  // RFC 8461 §3.3: the policy is fetched only once a valid record says there is one
  const fetched = recordId === null ? null : await fetchMtaStsPolicy(net, domain, signal);
  const policy = policyPart(fetched, fetched?.url ?? mtaStsPolicyUrl(domain));
  const usable = policy.mode === null ? null : { mode: policy.mode, patterns: policy.mx };
  const hosts = await Promise.all(mx.hosts.map((host) => checkHost(context, host, usable)));

  if (mx.nullMx)
    diagnostics.push({
      severity: record.found ? 'warning' : 'info',
      code: 'MTASTS_NULL_MX',
      message: `${domain} publishes a null MX: it accepts no mail (RFC 7505)${record.found ? ', so its MTA-STS policy protects nothing' : ''}.`,
      rfc: 'RFC 7505 §3',
      ...(record.found
        ? { fix: `Remove the MTA-STS record and policy of ${domain}, or publish real MX hosts.` }
        : {}),
    });
  if (mx.dnsError !== null)
    diagnostics.push({
      severity: 'error',
      code: 'MTASTS_MX_DNS_ERROR',
      message: `${mx.dnsError}. No MX host was checked against the policy.`,
      rfc: 'RFC 5321 §5.1',
      fix: `Make the DNS servers of ${domain} answer its MX query, then check again.`,
    });
  if (mx.omittedHosts > 0)
    diagnostics.push({
      severity: 'info',
      code: 'MTASTS_MX_OMITTED',
      message: `${plural(mx.omittedHosts, 'more MX host')} beyond the first ${mx.hosts.length} were not checked.`,
    });
  if (policy.mode === 'none')
    diagnostics.push({
      severity: 'info',
      code: 'MTASTS_MODE_NONE',
      message:
        'The policy mode is "none": senders apply no MTA-STS policy (this is how a domain withdraws one).',
      rfc: 'RFC 8461 §5',
    });

  const failingHosts = hosts.filter((host) => host.wouldFail).map((host) => host.host);
  const all = [
    ...record.diagnostics,
    ...policy.diagnostics,
    ...hosts.flatMap((host) => host.diagnostics),
    ...diagnostics,
  ];
  const hasError = all.some((diagnostic) => diagnostic.severity === 'error');
  const hasWarning = all.some((diagnostic) => diagnostic.severity === 'warning');
  let verdict: MtaStsCheckResult['verdict'];
  let summary: string;
  if (lookup.dnsError !== null) {
    verdict = 'fail';
    summary = `The record of ${domain} cannot be read (${lookup.dnsError}): senders cannot discover its MTA-STS policy.`;
  } else if (!record.found) {
    verdict = 'none';
    summary = `${domain} publishes no MTA-STS record at ${mtaStsRecordName(domain)}: senders use TLS only opportunistically.`;
  } else if (policy.mode === 'none') {
    verdict = 'none';
    summary = `${domain}'s MTA-STS policy has mode "none": no policy is applied.`;
  } else if (usable === null) {
    verdict = 'fail';
    summary = `${domain} publishes an MTA-STS record but no usable policy: senders deliver as though it had none.`;
  } else if (mx.dnsError !== null) {
    verdict = 'fail';
    summary = `The MX hosts of ${domain} cannot be looked up (${mx.dnsError}): no MX host was checked, and senders cannot deliver until the lookup works.`;
  } else if (failingHosts.length > 0) {
    verdict = 'fail';
    summary = `Enforce mode: mail to ${failingHosts.join(', ')} would fail (${plural(failingHosts.length, 'MX host')} of ${hosts.length}).`;
  } else if (hasError || hasWarning) {
    verdict = hasError ? 'fail' : 'warn';
    summary =
      policy.mode === 'testing'
        ? `Testing mode: ${hosts.filter((host) => host.diagnostics.some((d) => d.severity === 'warning')).length} of ${hosts.length} MX hosts would fail in enforce mode; mail is still delivered.`
        : `The MTA-STS policy of ${domain} is applied with warnings.`;
  } else {
    verdict = 'pass';
    summary = `${policy.mode === 'enforce' ? 'Enforce' : 'Testing'} mode: every MX host (${hosts.length}) matches the policy and offers STARTTLS with a valid certificate.`;
  }
  return {
    domain,
    verdict,
    summary,
    record,
    policy,
    mx: { nullMx: mx.nullMx, dnsError: mx.dnsError, hosts },
    failingHosts,
    diagnostics,
  };
}
