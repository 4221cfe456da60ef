import { defineOperations } from '../core/operation.ts';
import {
  dkimMessageMaxBytes,
  dkimVerifyMessageBody,
  dkimVerifyMessageResultSchema,
} from './message-schema.ts';
import {
  dkimDnsBody,
  dkimDnsResultSchema,
  dkimGenerateBody,
  dkimGenerateResultSchema,
  dkimSelectorDiscoverySchema,
  dkimSelectorsBody,
  dkimValidateBody,
  dkimValidationResultSchema,
} from './schema.ts';

/** The DKIM tool's operations (RFC 6376 §3.6.1, RFC 8301, RFC 8463). */
export const dkimOperations = defineOperations('dkim', {
  generate: {
    path: '/generate',
    body: dkimGenerateBody,
    result: dkimGenerateResultSchema,
    summary: 'Generate a DKIM key record',
    description:
      'Builds the TXT record for a public key (base64 or PEM; the private key never comes here) and ' +
      'publishes it at `selector._domainkey.domain`. Also returns the record as 255-character strings and ' +
      'a zone-file line, and the a= and c= a signer should use. rsa-sha1 is accepted only with a ' +
      'MUST NOT warning (RFC 8301 §3.1); keys a verifier would reject (RSA under 1024 bits) are refused.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  validate: {
    path: '/validate',
    body: dkimValidateBody,
    result: dkimValidationResultSchema,
    summary: 'Validate a DKIM key record',
    description:
      'Checks a key record: the bare TXT value, its quoted strings, or a zone-file line (strings are ' +
      'joined first). Reads and measures the key; a revoked key (empty p=) is not valid and ' +
      '`parsed.status` says revoked.',
    rateLimit: 'validation',
    runsIn: 'both',
  },
  dns: {
    path: '/dns',
    body: dkimDnsBody,
    result: dkimDnsResultSchema,
    summary: 'Look up and validate a published DKIM key',
    description:
      'Queries the TXT record at `selector._domainkey.domain` through the guarded DNS client, follows CNAME ' +
      'delegation, joins split strings and validates the record. `status` is valid, invalid, revoked, ' +
      "not-found (NXDOMAIN or no TXT data) or error (the name's servers answered SERVFAIL): that DNS failure " +
      'is a result. When our own DNS resolver does not answer, the answer is 503 RESOLVER_UNAVAILABLE (we ' +
      'could not check). Several key records at one name are an error; other TXT records are ignored with a note.',
    rateLimit: 'validation',
    runsIn: 'server',
    // 503 when our DNS resolver did not answer: we could not check
    remoteFailures: true,
  },
  selectors: {
    path: '/selectors',
    body: dkimSelectorsBody,
    result: dkimSelectorDiscoverySchema,
    summary: 'Find DKIM selectors of a domain',
    description:
      'Probes a list of selectors that mail providers use by default (Google, Microsoft 365, Mailchimp, ' +
      'SendGrid, Amazon SES, Proton, Fastmail …) in parallel and lists those with a key record, with key type ' +
      'and size. DKIM cannot list selectors, so a key under any other name is not found.',
    rateLimit: 'validation',
    runsIn: 'server',
  },
  verifyMessage: {
    path: '/verify-message',
    body: dkimVerifyMessageBody,
    result: dkimVerifyMessageResultSchema,
    summary: 'Verify the DKIM signatures of a message',
    description:
      'Verifies every DKIM-Signature of a raw message (RFC 6376 §6), fetching each key through the guarded ' +
      'DNS client, and reports per signature d, s, a, c, the signed header fields, the body-hash match, the ' +
      'key (type, size and the key record validator findings), t= and x=, and the result ' +
      '(pass, fail, neutral, temperror, permerror, policy) with the reason. RFC 8301 applies: rsa-sha1 and ' +
      'RSA keys under 1024 bits fail. A message without DKIM-Signature gives no signatures and summary none. ' +
      'Messages over 5 MiB are refused.',
    rateLimit: 'validation',
    runsIn: 'server',
    // JSON escaping can more than double a message (every CRLF is `\r\n`); the message cap is checked decoded
    bodyLimit: 3 * dkimMessageMaxBytes,
  },
});
