import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { DENIED_COUNTRIES_META } from '@rfckit/standards';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError, routeNotFound } from './errors.ts';
import { deny } from './geo-gate.ts';

export interface WebStaticOptions {
  webDist: string;
  /** Raises the missing-build warning to an error in production, where it is a broken deployment. */
  production: boolean;
  /** Told to the web app in a `<meta>`, so that its region check refuses what the server refuses. */
  deniedCountries: readonly string[];
}

/** The built index.html with the server's settings the web app needs before its first request. */
export function shellHtml(indexHtml: string, deniedCountries: readonly string[]): string {
  const meta = `<meta name="${DENIED_COUNTRIES_META}" content="${deniedCountries.join(',')}" />`;
  return indexHtml.includes('</head>')
    ? indexHtml.replace('</head>', `    ${meta}\n  </head>`)
    : `${meta}\n${indexHtml}`;
}

/** Paths the web app never owns: an unknown one is an API 404, not a page. */
const serverPrefixes = ['/v1', '/api', '/docs'];

const IMMUTABLE = 'public, max-age=31536000, immutable';

function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? '/';
}

function isServerPath(urlPath: string): boolean {
  return serverPrefixes.some((prefix) => urlPath === prefix || urlPath.startsWith(`${prefix}/`));
}

/** Whether the client takes HTML: a browser says text/html; curl and others send a wildcard or nothing. */
function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * A client navigating to a client-side route: GET/HEAD that accepts HTML, for a path that does
 * not name a file (a missing `/app.js` stays a 404 rather than becoming HTML).
 */
function isPageNavigation(request: FastifyRequest, urlPath: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (isServerPath(urlPath)) return false;
  if (!acceptsHtml(request)) return false;
  const lastSegment = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  return !lastSegment.includes('.') || lastSegment.endsWith('.html');
}

/**
 * Serves the built web app from the API's port, with the history fallback for client-side
 * routes. Owns the 404 handler because the fallback must run before the NOT_FOUND envelope.
 */
export default fp<WebStaticOptions>(
  async (app, options) => {
    const indexFile = path.join(options.webDist, 'index.html');
    const built = existsSync(indexFile);
    const assetsDir = path.join(options.webDist, 'assets') + path.sep;
    const shell = built ? shellHtml(readFileSync(indexFile, 'utf8'), options.deniedCountries) : '';

    if (built) {
      await app.register(fastifyStatic, {
        root: options.webDist,
        prefix: '/',
        wildcard: true,
        dotfiles: 'ignore',
        // the page is always the shell below, with the server's settings in it
        index: false,
        allowedPath: (pathName) => pathName !== '/index.html' && !pathName.endsWith('/'),
        cacheControl: false,
        setHeaders: (reply, filePath) => {
          // Vite puts content-hashed names under assets/; everything else must be revalidated
          reply.header('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
        },
      });
    } else {
      const log = options.production ? app.log.error.bind(app.log) : app.log.warn.bind(app.log);
      log(
        { webDist: options.webDist },
        'web app is not built: pages answer 503 until `npm run build` has run',
      );
    }

    app.setNotFoundHandler(async (request, reply) => {
      const urlPath = pathOf(request);
      const page = isPageNavigation(request, urlPath) && built;
      if (request.regionDenied) {
        // the page loads (its scripts are let through) and shows the Access Denied screen
        if (!page) {
          deny(request, reply);
          return reply;
        }
        return reply
          .code(451)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(shell);
      }
      if (!isPageNavigation(request, urlPath)) throw routeNotFound(request);
      if (!built) throw new HttpError(503, 'WEB_NOT_BUILT', 'Web app is not built: run npm run build');
      return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(shell);
    });
  },
  { name: 'web-static' },
);
