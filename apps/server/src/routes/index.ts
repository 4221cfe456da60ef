import type { FastifyPluginAsync } from 'fastify';
import health from './health.ts';
import dnskey from './tools/dnskey.ts';

/** Every API route, relative to the version prefix (registered under /v1 and /api/v1). */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(health);
  await app.register(dnskey);
};

export default routes;
