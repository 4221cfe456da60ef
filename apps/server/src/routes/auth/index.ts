import type { FastifyPluginAsync } from 'fastify';
import accountRoutes from './account-routes.ts';
import profileRoutes from './profile-routes.ts';
import protectionRoutes from './protection-routes.ts';
import sessionRoutes from './session-routes.ts';

/** /auth/*: accounts, sessions and the signed-in user's profile (spec part 1 §7). */
const auth: FastifyPluginAsync = async (app) => {
  await app.register(accountRoutes);
  await app.register(sessionRoutes);
  await app.register(profileRoutes);
  await app.register(protectionRoutes);
};

export default auth;
