import {
  generateSmtpTls,
  implicitTlsPorts,
  mailServices,
  smtpTlsIdentifierMaxLength,
  smtpTlsMaxIdentifiers,
  smtpTlsOperations,
  smtpTlsPemMaxLength,
  smtpTlsServiceTypes,
  srvServiceOf,
  tlsStartOf,
  validateSmtpTls,
  validateSmtpTlsPem,
  type SmtpTlsInfo,
  type SmtpTlsValidateBody,
} from '@rfckit/standards';
import type { NetSession } from '../../net/layer.ts';
import { PRESENTED_CHAIN_STEP_TIMEOUT_MS, fetchPresentedChain } from '../../tls/presented-chain.ts';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';

const seconds = (ms: number): string => `${ms / 1000} s`;

/** What this server checks and with which limits, from the constants the checks use. */
const info: SmtpTlsInfo = {
  checks: [
    {
      name: 'DNS-ID',
      rfc: 'RFC 7817 §3, RFC 6125 §6.4',
      description:
        'subjectAltName dNSName against the server hostname: exact (case-insensitive, trailing dot ignored), or "*" as the complete left-most label standing for one label, never the bare parent, never a partial label, never inside an A-label, never over a public suffix. Internationalised names are compared as A-labels (RFC 3492 Punycode).',
    },
    {
      name: 'SRV-ID',
      rfc: 'RFC 7817 §3, RFC 4985, RFC 6186',
      description:
        'With SRV discovery, subjectAltName SRVName (otherName 1.3.6.1.5.5.7.8.7) _service.domain against the service label and the email domain: _submission, _submissions, _imap, _imaps, _pop3, _pop3s, _sieve.',
    },
    {
      name: 'CN-ID',
      rfc: 'RFC 7817 §3, RFC 6125 §6.4.4',
      description:
        'The subject CN, only when the certificate has no DNS-ID and no SRV-ID: allowed (MAY) for old certificates, reported as a warning.',
    },
    {
      name: 'URI-ID',
      rfc: 'RFC 7817 §3',
      description: 'Never used to identify an email server; reported when present.',
    },
    {
      name: 'Validity',
      rfc: 'RFC 5280 §4.1.2.5',
      description: 'A certificate read from PEM or fetched live is failed when expired or not yet valid.',
    },
    {
      name: 'Scope',
      rfc: 'RFC 7817 §1',
      description:
        'Submission, IMAP, POP and ManageSieve clients. Port 25 (MTA to MTA) is authenticated by MTA-STS (RFC 8461) or DANE (RFC 7672) instead.',
    },
  ],
  services: smtpTlsServiceTypes.map((serviceType) => {
    const service = mailServices[serviceType];
    const srv = srvServiceOf(serviceType, service.port);
    return {
      serviceType,
      label: service.label,
      port: service.port,
      tls: tlsStartOf(serviceType, service.port),
      srvService: srv === null ? null : `_${srv}._tcp`,
    };
  }),
  limits: [
    { name: 'Identifiers read of each kind', value: String(smtpTlsMaxIdentifiers) },
    { name: 'Length of one identifier', value: `${smtpTlsIdentifierMaxLength} characters` },
    { name: 'Pasted PEM', value: `${smtpTlsPemMaxLength / 1024} KiB` },
    {
      name: 'Live fetch, per step (connect, each STARTTLS reply, handshake)',
      value: seconds(PRESENTED_CHAIN_STEP_TIMEOUT_MS),
    },
    { name: 'Implicit TLS ports', value: implicitTlsPorts.join(', ') },
    {
      name: 'Live fetch targets',
      value: 'public addresses only; private, loopback and link-local addresses are refused',
    },
  ],
};

/** The certificate the server presents, with STARTTLS where the service starts TLS that way. */
async function validateLive(body: SmtpTlsValidateBody, net: NetSession, signal: AbortSignal) {
  const service = mailServices[body.serviceType];
  const port = body.live?.port ?? body.port ?? service.port;
  const host = body.live?.host ?? body.serverHostname;
  const starttls = tlsStartOf(body.serviceType, port) === 'implicit' ? 'none' : service.protocol;
  const fetched = await fetchPresentedChain(net, { host, port, starttls }, signal);
  const leaf = fetched.certificates[0]?.pem ?? fetched.pem;
  return resultOf(
    validateSmtpTlsPem(body, leaf, {
      host: fetched.host,
      port: fetched.port,
      starttls: fetched.starttls,
    }),
  );
}

/** SMTP TLS server identity (RFC 7817): the rules live in @rfckit/standards; the server adds the live fetch. */
export default defineHandlers(smtpTlsOperations, {
  info: () => info,
  generate: (body) => generateSmtpTls(body),
  validate: (body, { app, signal }) =>
    body.live === undefined ? resultOf(validateSmtpTls(body)) : validateLive(body, app.net.session(), signal),
});
