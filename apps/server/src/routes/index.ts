import type { FastifyPluginAsync } from 'fastify';
import auth from './auth/index.ts';
import health from './health.ts';
import activity from './organisation/activity.ts';
import tools from './tools/index.ts';

/** Every API route, relative to the version prefix (registered under /v1 and /api/v1). */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(health);
  await app.register(tools);
  await app.register(auth);
  await app.register(activity);
};

export default routes;
