import { defineOperations } from '../core/operation.ts';
import {
  mtaStsCheckBody,
  mtaStsCheckResultSchema,
  mtaStsGenerateBody,
  mtaStsGenerateResultSchema,
  mtaStsValidateBody,
  mtaStsValidationResultSchema,
} from './schema.ts';

/** The MTA-STS tool's operations (RFC 8461). */
export const mtaStsOperations = defineOperations('mta-sts', {
  generate: {
    path: '/generate',
    body: mtaStsGenerateBody,
    result: mtaStsGenerateResultSchema,
    summary: 'Generate an MTA-STS record and policy',
    description:
      'Builds the _mta-sts TXT record (v=STSv1; id=…, the id given or the UTC date and time as YYYYMMDDhhmmss) ' +
      'and the policy file (version STSv1, mode, one mx line per non-blank pattern, max_age; CRLF line endings), ' +
      'with the hosting steps: https://mta-sts.{domain}/.well-known/mta-sts.txt, text/plain, a certificate valid ' +
      'for mta-sts.{domain}. Defaults: mode enforce, max_age 604800. 400 when the domain or an mx pattern is not ' +
      'usable, or enforce/testing has no mx.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  validate: {
    path: '/validate',
    body: mtaStsValidateBody,
    result: mtaStsValidationResultSchema,
    summary: 'Validate an MTA-STS policy file or TXT record',
    description:
      'With kind policy (the default): checks the text of mta-sts.txt against RFC 8461 §3.2 (version, mode, ' +
      'max_age 0..31557600 in digits, mx patterns, duplicate and unknown fields). With kind record: checks the ' +
      '_mta-sts TXT value against RFC 8461 §3.1 (v=STSv1 first, id of 1-32 letters or digits). Each diagnostic ' +
      'has a stable code, the RFC section, its requirement level and a fix.',
    rateLimit: 'default',
    runsIn: 'both',
  },
  check: {
    path: '/check',
    body: mtaStsCheckBody,
    result: mtaStsCheckResultSchema,
    summary: 'Check a domain’s live MTA-STS as a sending MTA applies it',
    description:
      'Reads the TXT record at _mta-sts.{domain} (RFC 8461 §3.1), fetches the policy from ' +
      'https://mta-sts.{domain}/.well-known/mta-sts.txt as §3.3 requires (HTTPS, no redirect followed, a certificate ' +
      'valid for that name, 64 KB at most, 15 s; RFC 8461 suggests 60 s), looks up the MX hosts (at most 10; the ' +
      'domain itself without MX, a null MX said as such), then, for every MX host at once, matches it against the ' +
      'policy’s mx patterns (§4.1) and opens an SMTP session on port 25 up to STARTTLS and the TLS handshake to ' +
      'judge its certificate: PKIX trust, the MX host name, the dates (§4.2). Session limits: connect 10 s, banner ' +
      '20 s, each reply 15 s, handshake 15 s, 60 s per host. In enforce mode a failing host makes the verdict fail ' +
      'and is listed in failingHosts (mail to it would fail); in testing mode the same problems are warnings (§5). ' +
      '422 when the policy host’s address is one we may not connect to.',
    rateLimit: 'default',
    runsIn: 'server',
  },
});
