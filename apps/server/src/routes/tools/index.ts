import type { FastifyPluginAsync } from 'fastify';
import arc from './arc.ts';
import dkim from './dkim.ts';
import dmarc from './dmarc.ts';
import dnskey from './dnskey.ts';
import httpHeaders from './http-headers.ts';
import securityTxt from './security-txt.ts';
import spf from './spf.ts';

/**
 * Every tool route. They all need a signed-in caller or an organisation API key (DESIGN §4),
 * enforced here once so that a new tool registered below cannot be left open by mistake; the
 * OpenAPI document says so too. These are the only routes that accept an API key.
 */
const tools: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ bearerAuth: [] }, { apiKeyAuth: [] }] };
    route.config = { ...route.config, apiKeyAccess: true };
  });
  // at onRequest: an anonymous body is never parsed or validated
  app.addHook('onRequest', app.authenticateToolCaller);
  await app.register(arc);
  await app.register(dkim);
  await app.register(dmarc);
  await app.register(dnskey);
  await app.register(httpHeaders);
  await app.register(securityTxt);
  await app.register(spf);
};

export default tools;
