import { defineOperations } from '../core/operation.ts';
import {
  securityTxtFetchBody,
  securityTxtFetchResultSchema,
  securityTxtGenerateBody,
  securityTxtGenerateResultSchema,
  securityTxtValidateBody,
  securityTxtValidationResultSchema,
} from './schema.ts';

/** The security.txt tool's operations (RFC 9116). */
export const securityTxtOperations = defineOperations('security-txt', {
  generate: {
    path: '/generate',
    body: securityTxtGenerateBody,
    result: securityTxtGenerateResultSchema,
    summary: 'Generate a security.txt file',
    description:
      'Writes the fields in RFC 9116 order, one per line, with LF line ends and a final newline. ' +
      '`warnings` holds advice that did not block generation.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  validate: {
    path: '/validate',
    body: securityTxtValidateBody,
    result: securityTxtValidationResultSchema,
    summary: 'Validate security.txt content',
    description:
      'Checks the file against RFC 9116 with the checks and codes of sectxt (errors, recommendations as ' +
      'warnings, notifications as info), each with its line. With `publicKey`, an OpenPGP cleartext ' +
      'signature is verified.',
    rateLimit: 'default',
    runsIn: 'server',
  },
  fetch: {
    path: '/fetch',
    body: securityTxtFetchBody,
    result: securityTxtFetchResultSchema,
    summary: "Fetch a site's security.txt and validate it",
    description:
      'Looks for the file at https://<domain>/.well-known/security.txt, then /security.txt, then both over ' +
      'http (RFC 9116 §3); a URL with a port of its own (http://203.0.113.5:8080) is asked at that origin ' +
      'only, at both paths. Every location asked is in `attempts` with its outcome. Redirects are followed ' +
      'and reported, and the first file found is validated with every ' +
      'check of /validate plus the HTTP ones: location, https, certificate, Content-Type, charset, Canonical ' +
      'against the URLs fetched, and a redirect to another host. No file at any location is a result ' +
      '(`no_security_txt`, valid false), not an error. Errors: 422 when the domain does not resolve or its ' +
      'address may not be reached, 502/504 when the site cannot be reached (`details.tried` lists every ' +
      'location with its outcome) or answers more than 64 KiB, 503 when our DNS resolver did not answer.',
    rateLimit: 'default',
    runsIn: 'server',
    remoteFailures: true,
  },
});
