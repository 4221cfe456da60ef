import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { version } from '../version.ts';

export interface OpenApiOptions {
  publicUrl: string | undefined;
}

export const DOCS_PREFIX = '/docs';

/** The OpenAPI 3.1 document built from the routes' zod schemas, at /docs/json, and its UI at /docs. */
export default fp<OpenApiOptions>(
  async (app, options) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'rfckit API',
          version,
          description:
            'Check and build internet-standards security configuration. Every route is also served under /api/v1. ' +
            'Responses are `{ success: true, data }` or `{ success: false, error, code }`.',
        },
        servers: options.publicUrl === undefined ? [] : [{ url: options.publicUrl }],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'Access token from /v1/auth/login',
            },
            apiKeyAuth: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'rfk_ API key',
              description:
                'Organisation API key (`Authorization: Bearer rfk_…`), created by an admin with ' +
                'POST /v1/organisation/api-keys. Accepted on tool routes only; any other route answers 401.',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      // the site-wide CSP already fits: the UI loads only same-origin scripts and styles
      staticCSP: false,
      uiConfig: { deepLinking: true },
    });
  },
  { name: 'openapi' },
);
