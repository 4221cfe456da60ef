// The baseline: the smallest Fastify server, no logging, one JSON route. Its second route is the
// floor of the DNSKEY figure: the same validation with nothing around it (no sign-in, limiter,
// security headers, schemas or access log), to show what the product's stack adds.
import Fastify from 'fastify';
import { validateDnskey } from '@rfckit/standards';
import { nodeCrypto } from '../apps/server/src/crypto/node-crypto.ts';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.post('/dnskey/validate', async (request) => ({
  success: true,
  data: await validateDnskey((request.body as { record: string }).record, { crypto: nodeCrypto }),
}));
await app.listen({ port: Number(process.env.PORT ?? 4391), host: '127.0.0.1' });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close());
