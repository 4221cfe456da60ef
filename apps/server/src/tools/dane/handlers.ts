import { daneOperations, generateTlsa, validateTlsaWithChain } from '@rfckit/standards';
import { nodeCrypto } from '../../crypto/node-crypto.ts';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';
import { fetchPresentedChain } from './certificate.ts';

/** DANE/TLSA: record checks, record generation (logic in @rfckit/standards) and the chain a server presents. */
export default defineHandlers(daneOperations, {
  validate: (body) => validateTlsaWithChain(body, nodeCrypto),
  generate: async (body) => resultOf(await generateTlsa(body, nodeCrypto)),
  certificate: (body, { app, signal }) => fetchPresentedChain(app.net.session(), body, signal),
});
