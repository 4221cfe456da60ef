import { defineOperations } from '../core/operation.ts';
import {
  cipherValidationSchema,
  tlsCipherValidateBody,
  tlsRecommendationsQuery,
  tlsServerConfigSchema,
} from './schema.ts';

/**
 * The TLS cipher tool's operations (docs/architecture.md §3). The scan (`/analyse`, `/analyze`)
 * joins them when the scanner is built.
 */
export const tlsCipherOperations = defineOperations('tls-cipher', {
  validate: {
    path: '/validate',
    body: tlsCipherValidateBody,
    result: cipherValidationSchema,
    summary: 'Look up and rate a TLS cipher suite',
    description:
      'Finds a cipher suite by IANA, OpenSSL or GnuTLS name or by its code point (0xC0,0x2F, c02f) in the ' +
      'IANA registry, and answers its key exchange, authentication, cipher, MAC, forward secrecy, protocol ' +
      'versions and security level (HIGH, MEDIUM, LOW, INSECURE) with advice for each weakness. A suite the ' +
      'registry does not know is answered with level UNKNOWN.',
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
