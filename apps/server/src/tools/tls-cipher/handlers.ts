import { tlsCipherOperations, tlsServerConfig, validateCipherSuite } from '@rfckit/standards';
import { defineHandlers } from '../contract.ts';

/** Cipher-suite look-up and Mozilla-based server configurations; the logic lives in @rfckit/standards. */
export default defineHandlers(tlsCipherOperations, {
  validate: (body) => validateCipherSuite(body.cipherSuite),
  recommendations: (query) => tlsServerConfig(query.profile, query.server),
});
