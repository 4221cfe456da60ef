import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorEnvelope } from './errors.ts';

/** Spec part 1 §8, verbatim. */
export const MALICIOUS_PATH_MESSAGE = 'Invalid endpoint: potentially malicious pattern detected';

/** Segments that name a probe target wherever they appear (`/blog/wp-admin/`, `/api/actuator/env`). */
const probeSegments = new Set([
  'wp-admin',
  'wp-content',
  'wp-includes',
  'wp-login',
  'xmlrpc',
  'phpmyadmin',
  'phpmyadmin2',
  'pma',
  'myadmin',
  'mysqladmin',
  'sqladmin',
  'cgi-bin',
  'actuator',
  'server-status',
  'server-info',
  'phpunit',
]);

/** Segments that are a probe as the first one only, so our own API may still use the words deeper down. */
const probeRoots = new Set([
  'admin',
  'administrator',
  'backup',
  'backups',
  'bak',
  'old',
  'shell',
  'wordpress',
  'wp',
  'boaform',
  'hnap1',
]);

/** File types we never serve and scanners always ask for: scripts of other stacks, backups, dumps, archives. */
const PROBE_EXTENSION =
  /\.(?:php\d?|phtml|phar|asp|aspx|jsp|jspa|cgi|bak|backup|old|orig|save|swp|sql|sqlite|tar|tgz|gz|zip|rar|7z|war)$/;

/** Dotfiles and dot-directories (`.env`, `.env.local`, `.git`, `.aws`, `.DS_Store`…), except RFC 8615's. */
function isHiddenSegment(segment: string): boolean {
  return segment.startsWith('.') && segment !== '.well-known';
}

/** Overlong UTF-8 encodings of `.`, `/` and `\`: only an attack produces these. */
const OVERLONG = /%c0%ae|%c0%af|%c1%9c|%c1%1c|%e0%80%ae/;

/** Decoding more than this many times finds nothing new: triple-encoded `..` is already suspicious. */
const MAX_DECODE_ROUNDS = 3;

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Why a request path looks like an attack or a probe, or undefined when it does not. Checks the
 * path as sent and each percent-decoding of it, so `%2e%2e%2f` and `%252e%252e` are caught.
 */
export function maliciousPathReason(url: string): string | undefined {
  let path = pathOf(url).toLowerCase();
  if (OVERLONG.test(path)) return 'overlong UTF-8 encoding';
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (path.includes('\0')) return 'NUL byte';
    const segments = path.split(/[/\\]/);
    for (const [index, segment] of segments.entries()) {
      if (segment === '..') return 'path traversal';
      if (segment === '') continue;
      if (isHiddenSegment(segment)) return `hidden file ${segment}`;
      if (probeSegments.has(segment.replace(/\.php$/, ''))) return `probe of ${segment}`;
      // segments[0] is the empty string before the leading slash
      if (index === 1 && probeRoots.has(segment)) return `probe of /${segment}`;
      if (index === 1 && segment === 'manager' && segments[2] === 'html') return 'probe of /manager/html';
    }
    const last = segments.at(-1) ?? '';
    if (PROBE_EXTENSION.test(last) || last.endsWith('~')) return `probe of ${last}`;
    if (!path.includes('%')) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // the router already refuses a malformed URL; a literal `%` left after one decoding is data
      return round === 0 ? 'undecodable percent-encoding' : undefined;
    }
    if (decoded === path) return undefined;
    path = decoded.toLowerCase();
  }
  return 'percent-encoded more than three times';
}

function refuse(request: FastifyRequest, reply: FastifyReply, reason: string): void {
  const path = pathOf(request.url);
  request.log.warn(
    { ip: request.ip, path: path.length > 200 ? `${path.slice(0, 200)}...` : path, reason },
    'refused a malicious path',
  );
  const body: ErrorEnvelope = { success: false, error: MALICIOUS_PATH_MESSAGE, code: 'MALICIOUS_PATH' };
  void reply.code(404).type('application/json; charset=utf-8').send(body);
}

/**
 * Answers 404 MALICIOUS_PATH to requests for WordPress, phpMyAdmin, dotfiles, backups, admin
 * consoles, other stacks' scripts and path traversal, before any route (static files included)
 * runs. Duplicate slashes are collapsed earlier, by `rewriteUrl` in buildApp.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      const reason = maliciousPathReason(request.url);
      if (reason === undefined) {
        done();
        return;
      }
      refuse(request, reply, reason);
    });
  },
  { name: 'path-filter' },
);

/** `//v1//health` → `/v1/health`; the query string is left as it is. Cheap when there is nothing to do. */
export function collapseSlashes(url: string): string {
  if (!url.includes('//')) return url;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return path.replace(/\/{2,}/g, '/') + (end === -1 ? '' : url.slice(end));
}
