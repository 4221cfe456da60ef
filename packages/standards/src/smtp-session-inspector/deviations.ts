// What an SMTP session's transcript says about the server, judged against RFC 5321, RFC 3207 and
// RFC 8314: pure analysis of the recorded steps, each finding with its section and a fix.
import type { Diagnostic } from '../core/diagnostic.ts';
import type { SmtpMxResult, SmtpSessionView, SmtpStepView } from './schema.ts';

/** A banner slower than this is worth a note: senders wait, but every delivery pays for it. */
export const SLOW_BANNER_MS = 5_000;

/** The TLS versions RFC 8996 deprecates. */
const DEPRECATED_TLS = new Set(['SSLv3', 'TLSv1', 'TLSv1.1']);

const keyword = (extension: string): string => extension.split(' ')[0] ?? extension;

function stepOf(session: SmtpSessionView, kind: SmtpStepView['kind']): SmtpStepView | undefined {
  return session.steps.find((step) => step.kind === kind);
}

function failedStep(step: SmtpStepView, session: SmtpSessionView): Diagnostic | undefined {
  const where = `${session.host} port ${session.port}`;
  const said = step.reply.length > 0 ? ` ("${step.reply.join(' ').slice(0, 200)}")` : '';
  switch (step.kind) {
    case 'connect':
      return {
        severity: 'error',
        code: 'SMTP_CONNECT_FAILED',
        message: `Could not connect to ${where}: ${step.error ?? 'no answer'}.`,
        rfc: 'RFC 5321 §5.1',
        fix: 'Check that the mail server listens on this port and that no firewall drops connections from the internet.',
      };
    case 'banner': {
      if (step.code === null && step.error?.startsWith('not an SMTP reply'))
        return {
          severity: 'error',
          code: 'SMTP_NOT_SMTP',
          message: `${where} does not speak SMTP: ${step.error}.`,
          rfc: 'RFC 5321 §4.2',
          fix: 'Point the MX record at a mail server, or run the mail server on this port instead of the other service.',
        };
      if (step.code === null)
        return {
          severity: 'error',
          code: 'SMTP_NO_BANNER',
          message: `${where} sent no greeting: ${step.error ?? 'nothing received'}.`,
          rfc: 'RFC 5321 §4.5.3.2.1',
          fix: 'The server must greet with 220 as soon as it accepts a connection; check that the mail service is running and not overloaded, and that no proxy in front of it holds connections.',
        };
      if (step.code >= 400 && step.code < 500)
        return {
          severity: 'warning',
          code: 'SMTP_BANNER_TEMPORARY',
          message: `${where} greeted with ${step.code}${said}: a temporary refusal, so senders queue the mail and try again later. Greylisting and overload look like this.`,
          rfc: 'RFC 5321 §4.2.1, §3.8',
          fix: 'If it is greylisting, answer 4xx at RCPT TO rather than in the greeting, where senders see it only for new senders; if the server is overloaded or shutting down (421), find out why before senders give up (typically after 4-5 days).',
        };
      if (step.code === 554)
        return {
          severity: 'error',
          code: 'SMTP_BANNER_REJECTED',
          message: `${where} greeted with 554${said}: "no SMTP service here", so no mail is accepted from us.`,
          rfc: 'RFC 5321 §3.1, §4.2.3',
          fix: 'If this host should receive mail, remove the connection-level block (often a DNSBL or an address rule); if it should not, take it out of the MX records.',
        };
      return {
        severity: 'error',
        code: 'SMTP_BANNER_NOT_220',
        message: `${where} greeted with ${step.code}${said} instead of 220.`,
        requirement: 'MUST',
        rfc: 'RFC 5321 §4.2, §4.3.2',
        fix: 'The greeting must be 220 followed by the server’s name.',
      };
    }
    case 'ehlo':
    case 'ehlo-tls':
      if (step.code === null)
        return {
          severity: 'error',
          code: 'SMTP_REPLY_MISSING',
          message: `No answer to ${step.sent ?? 'EHLO'}${step.kind === 'ehlo-tls' ? ' after TLS' : ''}: ${step.error ?? 'nothing received'}.`,
          rfc: 'RFC 5321 §4.5.3.2',
          fix: 'Check the server’s logs for the session: it must answer every command.',
        };
      return {
        severity: 'error',
        code: 'SMTP_EHLO_REJECTED',
        message: `${where} answered EHLO${step.kind === 'ehlo-tls' ? ' after TLS' : ''} with ${step.code}${said}. We did not fall back to HELO (RFC 5321 §4.1.4 lets a client try it): without EHLO a server can announce no extension, STARTTLS included, so mail to it travels unencrypted.`,
        requirement: 'MUST',
        rfc: 'RFC 5321 §4.1.1.1, §3.2',
        fix: 'Enable ESMTP: every current server supports EHLO, and RFC 5321 §3.2 requires servers to support it.',
      };
    case 'starttls':
      return {
        severity: 'error',
        code: 'SMTP_STARTTLS_FAILED',
        message:
          step.code === 454
            ? `${where} advertises STARTTLS but answered it with 454${said}: TLS not available, so senders deliver in the clear or not at all.`
            : `${where} advertises STARTTLS but ${step.code === null ? (step.error ?? 'did not answer it') : `answered it with ${step.code}${said}`}.`,
        requirement: 'MUST',
        rfc: 'RFC 3207 §4',
        fix: 'Check the server’s TLS configuration (certificate and key files readable, TLS enabled for this port), or stop advertising STARTTLS until TLS works.',
      };
    case 'tls':
      return {
        severity: 'error',
        code: 'SMTP_TLS_FAILED',
        message: `The TLS handshake with ${where} failed: ${step.error ?? 'no reason given'}.`,
        rfc: session.mode === 'implicit' ? 'RFC 8314 §3' : 'RFC 3207 §4.1',
        fix: step.error?.startsWith('the server answered in plain text')
          ? 'This port speaks plain SMTP: use STARTTLS on port 587 (submission) or 25 (relay), or enable implicit TLS on this port.'
          : 'Check the TLS configuration: the certificate and key, the protocol versions (TLS 1.2 and 1.3) and that nothing in front of the server cuts the connection after STARTTLS.',
      };
    case 'quit':
      return {
        severity: 'info',
        code: 'SMTP_QUIT_NOT_221',
        message: `${where} answered QUIT with ${step.code ?? 'nothing'}${said} instead of 221.`,
        requirement: 'MUST',
        rfc: 'RFC 5321 §4.1.1.10',
        fix: 'The server must answer QUIT with 221 and close the connection; harmless for delivery.',
      };
  }
}

function certificateFindings(session: SmtpSessionView): Diagnostic[] {
  const tls = session.tls;
  if (tls === null) return [];
  const relay = session.port === 25;
  const severity = relay ? 'info' : 'error';
  const consequence = relay
    ? 'Senders using opportunistic TLS (RFC 7435) still deliver, encrypted but unauthenticated; senders that enforce MTA-STS (RFC 8461) or DANE (RFC 7672) will not.'
    : 'Mail clients validate the certificate (RFC 8314 §4.1, RFC 7817) and will refuse to send.';
  const rfc = relay ? 'RFC 8461 §4.2, RFC 7672 §3' : 'RFC 8314 §4.1, RFC 7817 §3';
  const findings: Diagnostic[] = [];
  const leaf = tls.chain[0];
  if (!tls.trusted)
    findings.push({
      severity,
      code: 'SMTP_CERTIFICATE_UNTRUSTED',
      message: `The certificate of ${session.host} is not trusted: ${tls.trustError ?? 'no path to a trusted root'}. ${consequence}`,
      rfc,
      fix: 'Use a certificate from a public CA and send the intermediate certificates with it. Check MTA-STS and DANE with their tools.',
    });
  if (!tls.nameMatches)
    findings.push({
      severity,
      code: 'SMTP_CERTIFICATE_NAME_MISMATCH',
      message: `The certificate of ${session.host} is not valid for that name (it names ${leaf?.dnsNames.join(', ') || leaf?.subject || 'nothing'}). ${consequence}`,
      rfc: relay ? rfc : 'RFC 7817 §3, RFC 6125 §6.4',
      fix: `Get a certificate whose subjectAltName includes ${session.host}, the name in the MX record.`,
    });
  if (tls.expired)
    findings.push({
      severity,
      code: 'SMTP_CERTIFICATE_EXPIRED',
      message: `The certificate of ${session.host} is outside its validity (${leaf?.notBefore ?? '?'} to ${leaf?.notAfter ?? '?'}). ${consequence}`,
      rfc: relay ? rfc : 'RFC 5280 §4.1.2.5',
      fix: 'Renew the certificate and reload the mail server; automate renewal (ACME) so it cannot lapse again.',
    });
  return findings;
}

function extensionFindings(session: SmtpSessionView): Diagnostic[] {
  const after = session.extensionsAfterTls;
  if (after === null) return [];
  const beforeKeys = new Set(session.extensions.map(keyword));
  const afterKeys = new Set(after.map(keyword));
  const findings: Diagnostic[] = [];
  if (afterKeys.has('STARTTLS'))
    findings.push({
      severity: 'error',
      code: 'SMTP_STARTTLS_AFTER_TLS',
      message: `${session.host} still advertises STARTTLS after TLS has started.`,
      requirement: 'MUST NOT',
      rfc: 'RFC 3207 §4.2',
      fix: 'Remove STARTTLS from the EHLO answer on TLS connections (every mainstream server does this by itself; look for a proxy or a hand-written EHLO list).',
    });
  const lost = [...beforeKeys].filter((key) => key !== 'STARTTLS' && !afterKeys.has(key));
  if (lost.length > 0)
    findings.push({
      severity: 'warning',
      code: 'SMTP_EXTENSIONS_LOST',
      message: `After STARTTLS ${session.host} no longer offers ${lost.join(', ')}. Senders go by the second EHLO answer, so these are unavailable to exactly the mail that is encrypted.`,
      rfc: 'RFC 3207 §4.2',
      fix: 'Offer the same extensions on TLS connections as on plain ones (check per-port or TLS-only settings of the server).',
    });
  const gained = [...afterKeys].filter((key) => key !== 'STARTTLS' && !beforeKeys.has(key));
  if (gained.length > 0)
    findings.push({
      severity: 'info',
      code: 'SMTP_EXTENSIONS_GAINED',
      message: `After STARTTLS ${session.host} also offers ${gained.join(', ')}.${gained.includes('AUTH') ? ' Offering AUTH only over TLS is expected and good: passwords are not sent in the clear.' : ''}`,
      rfc: 'RFC 3207 §4.2',
    });
  return findings;
}

/** Every departure the transcript shows, in the order of the session. */
export function smtpSessionDeviations(session: SmtpSessionView): Diagnostic[] {
  const findings: Diagnostic[] = [];
  for (const step of session.steps) {
    if (!step.ok) {
      const finding = failedStep(step, session);
      if (finding !== undefined) findings.push(finding);
    }
  }
  const banner = stepOf(session, 'banner');
  if (banner?.ok && banner.durationMs >= SLOW_BANNER_MS)
    findings.push({
      severity: 'info',
      code: 'SMTP_SLOW_BANNER',
      message: `The greeting took ${(banner.durationMs / 1000).toFixed(1)} s. Senders wait up to 5 minutes, so mail still arrives; a deliberate pause (Postfix postscreen’s greet pause) looks like this.`,
      rfc: 'RFC 5321 §4.5.3.2.1',
      fix: 'If the delay is not deliberate, look for slow reverse DNS lookups or an overloaded server.',
    });
  const ehlo = stepOf(session, 'ehlo');
  if (session.mode === 'starttls' && ehlo?.ok && !session.starttlsAdvertised)
    findings.push(
      session.port === 587
        ? {
            severity: 'error',
            code: 'SMTP_STARTTLS_MISSING',
            message: `${session.host} does not offer STARTTLS on the submission port: passwords and mail would go in the clear.`,
            requirement: 'MUST',
            rfc: 'RFC 8314 §3.3, RFC 3207',
            fix: 'Enable STARTTLS with a valid certificate on port 587 and require it before AUTH, or offer implicit TLS on port 465 (RFC 8314 §3.3 prefers it).',
          }
        : {
            severity: 'warning',
            code: 'SMTP_STARTTLS_MISSING',
            message: `${session.host} does not offer STARTTLS: mail to it travels unencrypted, and MTA-STS and DANE cannot protect it.`,
            rfc: 'RFC 3207 §4, RFC 8461 §5',
            fix: 'Enable STARTTLS with a certificate for the MX name (every mainstream MTA supports it).',
          },
    );
  if (session.tls !== null && DEPRECATED_TLS.has(session.tls.version))
    findings.push({
      severity: 'error',
      code: 'SMTP_TLS_DEPRECATED_VERSION',
      message: `${session.host} negotiated ${session.tls.version}, the newest version it offers: TLS 1.0 and 1.1 are deprecated.`,
      requirement: 'MUST NOT',
      rfc: 'RFC 8996 §2-3',
      fix: 'Enable TLS 1.2 and 1.3 on the mail server (and disable TLS 1.0 and 1.1).',
    });
  findings.push(...certificateFindings(session), ...extensionFindings(session));
  return findings;
}

/** What the MX lookup says about the domain's mail routing. */
export function smtpMxDiagnostics(lookup: Omit<SmtpMxResult, 'diagnostics'>): Diagnostic[] {
  const findings: Diagnostic[] = [];
  if (lookup.dnsError !== null)
    findings.push({
      severity: 'error',
      code: 'SMTP_MX_LOOKUP_FAILED',
      message: `${lookup.dnsError}.`,
      rfc: 'RFC 5321 §5.1',
      fix: 'Check that the domain exists and that its name servers answer MX queries.',
    });
  if (lookup.nullMx)
    findings.push({
      severity: 'info',
      code: 'SMTP_NULL_MX',
      message: `${lookup.domain} publishes a null MX ("0 ."): it accepts no mail, and senders return mail to it at once.`,
      rfc: 'RFC 7505 §3',
      fix: 'Nothing to do if the domain sends no mail; to receive mail, replace the null MX with the real MX hosts.',
    });
  for (const host of lookup.hosts) {
    if (host.implicit)
      findings.push({
        severity: 'info',
        code: 'SMTP_IMPLICIT_MX',
        message: `${lookup.domain} has no MX records, so senders deliver to the domain’s own address (implicit MX).`,
        rfc: 'RFC 5321 §5.1',
        fix: 'Publish an MX record naming the mail host; if the domain receives no mail, publish a null MX (RFC 7505).',
      });
    if (host.cnameTarget !== null)
      findings.push({
        severity: 'warning',
        code: 'SMTP_MX_IS_CNAME',
        message: `The MX host ${host.host} is an alias (CNAME) of ${host.cnameTarget}. Most senders follow it, but the MX must name the host itself.`,
        requirement: 'MUST NOT',
        rfc: 'RFC 2181 §10.3, RFC 5321 §5.1',
        fix: `Put ${host.cnameTarget} in the MX record instead of ${host.host}.`,
      });
    if (host.problem !== null)
      findings.push({
        severity: 'error',
        code: 'SMTP_MX_NO_ADDRESS',
        message: `The MX host ${host.host} cannot be reached: ${host.problem}.`,
        rfc: 'RFC 5321 §5.1',
        fix: `Give ${host.host} an A or AAAA record, or remove it from the MX records.`,
      });
  }
  if (lookup.omittedHosts > 0)
    findings.push({
      severity: 'info',
      code: 'SMTP_MX_TOO_MANY',
      message: `${lookup.omittedHosts} more MX host${lookup.omittedHosts === 1 ? ' was' : 's were'} not looked at: we list the first 10.`,
    });
  return findings;
}
