import type { FastifyPluginAsync } from 'fastify';
import { loadPasswordPolicy } from '@rfckit/standards';
import auth from './auth/index.ts';
import billing from './billing/index.ts';
import health from './health.ts';
import activity from './organisation/activity.ts';
import apiKeys from './organisation/api-keys.ts';
import invitations from './organisation/invitations.ts';
import members from './organisation/members.ts';
import organisationSettings from './organisation/settings.ts';
import tools from './tools/index.ts';

/** Every API route, relative to the version prefix (registered under /v1 and /api/v1). */
const routes: FastifyPluginAsync = async (app) => {
  // the common-password list the new-password schemas check against, before any request
  await loadPasswordPolicy();
  await app.register(health);
  await app.register(tools);
  await app.register(auth);
  await app.register(activity);
  await app.register(apiKeys);
  await app.register(organisationSettings);
  await app.register(members);
  await app.register(invitations);
  await app.register(billing);
};

export default routes;
