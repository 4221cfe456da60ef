import { defineOperations } from '../core/operation.ts';
import {
  smtpInspectBody,
  smtpInspectResultSchema,
  smtpMxBody,
  smtpMxResultSchema,
  smtpStepSchema,
} from './schema.ts';

/** The SMTP session inspector's operations (docs/architecture.md §3). */
export const smtpSessionInspectorOperations = defineOperations('smtp-session-inspector', {
  mx: {
    path: '/mx',
    body: smtpMxBody,
    result: smtpMxResultSchema,
    summary: 'List the mail hosts of a domain',
    description:
      'Looks up the MX records of the domain and each host’s A and AAAA addresses, by preference as a sending ' +
      'server orders them (RFC 5321 §5.1): the domain itself when it has no MX (implicit MX), nothing when it ' +
      'publishes a null MX (RFC 7505), and a warning for an MX name that is an alias (RFC 2181 §10.3). At most ' +
      '10 hosts are looked at.',
    rateLimit: 'default',
    runsIn: 'server',
    remoteFailures: true,
  },
  inspect: {
    path: '/inspect',
    body: smtpInspectBody,
    result: smtpInspectResultSchema,
    progress: smtpStepSchema,
    summary: 'Watch an SMTP session with a mail server',
    description:
      'Connects to the host, reads the banner, sends EHLO, STARTTLS (ports 25 and 587, RFC 3207) or starts TLS ' +
      'at once (465, RFC 8314), does the TLS handshake, sends EHLO again and QUIT; never MAIL FROM or DATA. ' +
      'Each step is timed and recorded with the lines sent and received, then judged: banner not 220, EHLO ' +
      'refused, STARTTLS missing or failing, extensions lost or gained after TLS, old TLS versions, the ' +
      'certificate. Time limits: connect 10 s, banner 30 s, each reply 30 s, handshake 15 s, session 90 s. ' +
      'With `Accept: text/event-stream` each step arrives as a `progress` event as it ends, then one `result`. ' +
      'A private address is refused with 422; a name that does not resolve is a 422 too.',
    rateLimit: 'default',
    runsIn: 'server',
    remoteFailures: true,
  },
});
