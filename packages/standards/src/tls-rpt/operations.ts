import { defineOperations } from '../core/operation.ts';
import {
  tlsRptGenerateBody,
  tlsRptGenerateResultSchema,
  tlsRptReportBody,
  tlsRptReportResultSchema,
  tlsRptSampleBody,
  tlsRptSampleResultSchema,
  tlsRptValidateBody,
  tlsRptValidateResultSchema,
} from './schema.ts';

/** The TLS-RPT tool's operations (RFC 8460); the spec's `/tlsrpt/…` paths are aliases. */
export const tlsRptOperations = defineOperations('tls-rpt', {
  generate: {
    path: '/generate',
    aliases: ['/tlsrpt/generate'],
    body: tlsRptGenerateBody,
    result: tlsRptGenerateResultSchema,
    summary: 'Generate a TLS-RPT record',
    description:
      'Builds the TXT record of RFC 8460 §3 (v=TLSRPTv1; rua=…) from a domain and its reporting URIs ' +
      '(mailto: or https:, blank entries skipped), with its name _smtp._tls.{domain} and a zone-file line.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
  validate: {
    path: '/validate',
    aliases: ['/tlsrpt/validate'],
    body: tlsRptValidateBody,
    result: tlsRptValidateResultSchema,
    summary: 'Validate a TLS-RPT record or a domain',
    description:
      'With `record`: checks the record against RFC 8460 §3 (v=TLSRPTv1 first, rua required, mailto: or https: ' +
      'URIs, extensions ignored). With `domain`: looks up the TXT records at _smtp._tls.{domain}, discards those ' +
      'not beginning with v=TLSRPTv1 and checks the one left (several left: senders report nothing).',
    rateLimit: 'default',
    runsIn: 'server',
    // 503 when our DNS resolver did not answer: we could not check
    remoteFailures: true,
  },
  report: {
    path: '/report',
    body: tlsRptReportBody,
    result: tlsRptReportResultSchema,
    summary: 'Read and check a TLS-RPT aggregate report',
    description:
      'Parses the JSON of an aggregate report (RFC 8460 §4.4), checks every field and type, and summarises each ' +
      'policy: successful and failed sessions, failure details grouped by result type (RFC 8460 §4.3) with the ' +
      'sending MTA and receiving MX. Date-times without a time zone are read as UTC with a warning.',
    rateLimit: 'default',
    runsIn: 'both',
  },
  sample: {
    path: '/sample',
    body: tlsRptSampleBody,
    result: tlsRptSampleResultSchema,
    summary: 'Build a sample TLS-RPT report for a domain',
    description:
      'A sample aggregate report (RFC 8460 §4.4) for the domain: yesterday (UTC), 100 successful and 5 failed ' +
      'sessions over result types its policy can meet. The policy is the one given, else the live MTA-STS policy ' +
      'of the domain, else TLSA records at _25._tcp of its MX hosts, else no-policy-found. Labelled a sample.',
    rateLimit: 'default',
    runsIn: 'server',
    remoteFailures: true,
  },
});
