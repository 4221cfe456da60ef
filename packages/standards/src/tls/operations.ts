import { defineOperations } from '../core/operation.ts';
import {
  cipherValidationSchema,
  tlsAnalyseBody,
  tlsAnalysisSchema,
  tlsScanProgressSchema,
  tlsCipherValidateBody,
  tlsRecommendationsQuery,
  tlsServerConfigSchema,
} from './schema.ts';

/** The TLS cipher tool's operations (docs/architecture.md §3). */
export const tlsCipherOperations = defineOperations('tls-cipher', {
  analyse: {
    path: '/analyse',
    // the spelling the spec's scanner calls
    aliases: ['/tls-cipher/analyze'],
    body: tlsAnalyseBody,
    result: tlsAnalysisSchema,
    progress: tlsScanProgressSchema,
    summary: 'Scan a TLS server and grade its configuration',
    description:
      'Connects to the host (optionally after STARTTLS) and finds every protocol version and cipher suite it ' +
      'accepts, its preference order, key exchange groups, extensions, certificate chain and the known ' +
      'vulnerabilities, then grades it after SSL Labs’ rating guide (score, grade and the caps that limited it) ' +
      'and against Mozilla’s profiles. With `Accept: text/event-stream` the answer is a stream of `progress` ' +
      'events and one `result` (or `error`) event carrying the usual envelope. A target that cannot be ' +
      'scanned is a 422 naming why: refused by the outbound rules, a name that does not resolve, a closed ' +
      'port, a server that does not speak TLS or never answers. A 503 means our own DNS resolver did not answer.',
    rateLimit: 'default',
    runsIn: 'server',
    remoteFailures: true,
  },
  validate: {
    path: '/validate',
    body: tlsCipherValidateBody,
    result: cipherValidationSchema,
    summary: 'Look up and rate a TLS cipher suite',
    description:
      'Finds a cipher suite by IANA, OpenSSL or GnuTLS name or by its code point (0xC0,0x2F, c02f) in the ' +
      'IANA registry, and answers its key exchange, authentication, cipher, MAC, forward secrecy, protocol ' +
      'versions and security level (HIGH, MEDIUM, LOW, INSECURE) with advice for each weakness. The ' +
      'registry’s two signalling values (TLS_EMPTY_RENEGOTIATION_INFO_SCSV, TLS_FALLBACK_SCSV) are answered ' +
      'as kind signalling with level N/A, SSL 2.0 cipher kinds (SSL_CK_…, 0x01,0x00,0x80) as kind ssl2, ' +
      'INSECURE (RFC 6176). A suite the registry does not know is answered with level UNKNOWN.',
    rateLimit: 'default',
    runsIn: 'both',
  },
  recommendations: {
    path: '/recommendations',
    method: 'GET',
    body: tlsRecommendationsQuery,
    result: tlsServerConfigSchema,
    summary: 'TLS configuration for a server from Mozilla’s guidelines',
    description:
      'Writes the TLS configuration of nginx, Apache, HAProxy, Caddy, Postfix or Node.js for Mozilla’s ' +
      'modern, intermediate or old Server Side TLS profile: protocols, cipher suites, TLS 1.3 suites, ' +
      'groups, DH parameters, HSTS and OCSP stapling.',
    rateLimit: 'default',
    runsIn: 'both',
  },
});
