import type { Outcome } from '../core/outcome.ts';
import { readSmtpTlsCertificate } from './certificate.ts';
import { validateSmtpTlsIdentity } from './identity.ts';
import type { SmtpTlsValidateBody, SmtpTlsValidation } from './schema.ts';

function settingsOf(body: SmtpTlsValidateBody) {
  return {
    serverHostname: body.serverHostname,
    emailDomain: body.emailDomain,
    serviceType: body.serviceType,
    port: body.port,
    includeSRV: body.includeSRV,
  };
}

/**
 * The validator for a certificate given as certificateInfo or PEM (no network): refuses unreadable
 * PEM, and a live source, which only the server can fetch.
 */
export function validateSmtpTls(
  body: SmtpTlsValidateBody,
  now: Date = new Date(),
): Outcome<SmtpTlsValidation> {
  if (body.certificateInfo !== undefined)
    return {
      ok: true,
      result: validateSmtpTlsIdentity({
        ...settingsOf(body),
        presented: body.certificateInfo,
        source: 'certificateInfo',
        now,
      }),
    };
  if (body.pem !== undefined) return validateSmtpTlsPem(body, body.pem, null, now);
  return { ok: false, error: 'A live certificate is fetched by the server' };
}

/** The validator for a PEM certificate, pasted or fetched from `live`. */
export function validateSmtpTlsPem(
  body: SmtpTlsValidateBody,
  pem: string,
  live: SmtpTlsValidation['live'],
  now: Date = new Date(),
): Outcome<SmtpTlsValidation> {
  const certificate = readSmtpTlsCertificate(pem);
  if (!certificate.ok) return certificate;
  return {
    ok: true,
    result: validateSmtpTlsIdentity({
      ...settingsOf(body),
      presented: certificate.result.info,
      certificate: certificate.result.details,
      source: live === null ? 'pem' : 'live',
      live,
      now,
    }),
  };
}
