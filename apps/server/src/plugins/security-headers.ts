import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Scripts only from our origin, never inline or eval'd. Styles allow 'unsafe-inline' because
 * Mantine, mermaid and swagger-ui set style attributes at run time.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const headers: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

// two years, the preload list's expectation; only sent over https so plain-http development keeps working
const HSTS = 'max-age=63072000; includeSubDomains';

/** Sets the headers on one reply; also used for errors raised before any hook runs. */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(headers);
  // request.protocol honours X-Forwarded-Proto only from proxies TRUST_PROXY trusts
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
}

/** Security headers on every response: API, web app, docs, errors. */
export default fp(
  async (app) => {
    // set on request rather than on send, so 404s, errors and streamed files all carry them
    app.addHook('onRequest', (request, reply, done) => {
      applySecurityHeaders(request, reply);
      done();
    });
  },
  { name: 'security-headers' },
);
