import { isIP } from 'node:net';
import { smtpMxDiagnostics, smtpSessionDeviations, smtpSessionInspectorOperations } from '@rfckit/standards';
import { lookupMx } from '../../mail-transport/mx.ts';
import { runSmtpSession, SMTP_TIMEOUTS } from '../../mail-transport/smtp-session.ts';
import { defineHandlers } from '../contract.ts';
import { asTargetProblem } from '../target-problem.ts';

/** Our EHLO name (RFC 5321 §4.1.1.1: the client's fully qualified name): the host of the public URL. */
function clientNameOf(appUrl: string): string {
  const host = new URL(appUrl).hostname;
  // an address literal goes in brackets (RFC 5321 §4.1.3)
  return isIP(host) === 4
    ? `[${host}]`
    : isIP(host.replace(/^\[|\]$/g, '')) === 6
      ? `[IPv6:${host.replace(/^\[|\]$/g, '')}]`
      : host;
}

/** The SMTP session inspector: MX hosts of a domain and a recorded session with one of them. */
export default defineHandlers(smtpSessionInspectorOperations, {
  mx: async ({ domain }, { app, signal }) => {
    const lookup = await lookupMx(app.net.session(), domain, signal);
    return { ...lookup, diagnostics: smtpMxDiagnostics(lookup) };
  },
  inspect: async ({ host, port, domain }, { app, progress, signal }) => {
    const session = await runSmtpSession(app.net.session(), {
      host,
      port,
      clientName: clientNameOf(app.config.appUrl),
      signal,
      onStep: progress,
    }).catch((error: unknown) => {
      throw asTargetProblem(error);
    });
    return {
      ...session,
      domain: domain ?? null,
      limits: { ...SMTP_TIMEOUTS },
      deviations: smtpSessionDeviations(session),
    };
  },
});
