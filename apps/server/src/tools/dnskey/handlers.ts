import { dnskeyOperations, validateDnskey } from '@rfckit/standards';
import { nodeCrypto } from '../../crypto/node-crypto.ts';
import { defineHandlers } from '../contract.ts';

/** DNSKEY record validation (RFC 4034 §2, key tag and DS digests); the logic lives in @rfckit/standards. */
export default defineHandlers(dnskeyOperations, {
  validate: (body) => validateDnskey(body.record, { crypto: nodeCrypto }),
});
