import { isIPv4 } from 'node:net';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import maxmind, { type CountryResponse, type Reader } from 'maxmind';
import { regionDeniedMessage, TRACE_PATH, UNKNOWN_COUNTRY } from '@rfckit/standards';
import type { TrustProxy } from '../config.ts';
import type { ErrorEnvelope } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** ISO 3166-1 alpha-2 code of the client's country, `XX` when unknown (which is allowed). */
    country: string;
    /**
     * Set for a denied client's page or static-file request, which is let through so the web app
     * can load and show its Access Denied screen; the page itself still answers 451.
     */
    regionDenied: boolean;
  }
}

export interface GeoGateOptions {
  deniedCountries: readonly string[];
  geoipDb: string | undefined;
  /** Lower-case name of the header a trusted proxy sets, e.g. `cf-ipcountry`. */
  geoHeader: string;
  trustProxy: TrustProxy;
}

// two letters, or a letter and a digit as in Cloudflare's T1 (Tor)
const COUNTRY_CODE = /^[A-Za-z][A-Za-z0-9]$/;

function trustFunction(trustProxy: TrustProxy): (address: string, hop: number) => boolean {
  if (trustProxy === true) return () => true;
  if (trustProxy === false) return () => false;
  return proxyAddr.compile(trustProxy);
}

/** The header a proxy set, when it is one TRUST_PROXY trusts; anyone else could type it. */
function countryFromProxy(
  request: FastifyRequest,
  header: string,
  trusts: (address: string, hop: number) => boolean,
): string | undefined {
  const peer = request.raw.socket?.remoteAddress;
  if (peer === undefined || !trusts(peer, 0)) return undefined;
  const value = request.headers[header];
  const code = (Array.isArray(value) ? value[0] : value)?.trim();
  if (code === undefined || !COUNTRY_CODE.test(code)) return undefined;
  const upper = code.toUpperCase();
  return upper === UNKNOWN_COUNTRY ? undefined : upper;
}

function countryFromDatabase(reader: Reader<CountryResponse>, ip: string): string | undefined {
  // a dual-stack listener reports IPv4 clients as ::ffff:a.b.c.d; IPv4-only databases need a.b.c.d
  const mapped = ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : ip;
  const address = isIPv4(mapped) ? mapped : ip;
  try {
    const found = reader.get(address);
    return found?.country?.iso_code ?? found?.registered_country?.iso_code;
  } catch {
    // an IPv6 client against an IPv4-only database, or an address the reader cannot parse
    return undefined;
  }
}

async function openDatabase(file: string): Promise<Reader<CountryResponse>> {
  try {
    return await maxmind.open<CountryResponse>(file);
  } catch (error) {
    throw new Error(`GEOIP_DB ${file} is not a usable MaxMind DB file: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Cloudflare's trace format, limited to the fields this server actually knows. */
function traceBody(request: FastifyRequest): string {
  const socket = request.raw.socket as TLSSocket | undefined;
  const httpVersion = request.raw.httpVersion;
  const fields: [string, string | undefined][] = [
    ['h', request.hostname],
    ['ip', request.ip],
    ['ts', (Date.now() / 1000).toFixed(3)],
    ['visit_scheme', request.protocol],
    ['uag', request.headers['user-agent']],
    ['http', httpVersion.startsWith('2') ? 'http/2' : `http/${httpVersion}`],
    ['loc', request.country],
    // only when this process terminated TLS itself; behind a proxy it did not
    ['tls', socket?.encrypted === true ? (socket.getProtocol() ?? undefined) : undefined],
  ];
  return fields
    .filter((field): field is [string, string] => field[1] !== undefined && field[1] !== '')
    .map(([key, value]) => `${key}=${value.replace(/[\r\n]/g, ' ')}\n`)
    .join('');
}

/** Answers 451 REGION_DENIED with the error envelope. */
export function deny(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ ip: request.ip, country: request.country }, 'refused a request from a denied region');
  const body: ErrorEnvelope = {
    success: false,
    error: regionDeniedMessage(request.country),
    code: 'REGION_DENIED',
  };
  void reply.code(451).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

/**
 * Locates each client (trusted proxy header, else the GeoIP database, else `XX`) and answers 451
 * REGION_DENIED on every route for the denied countries, except `GET /cdn-cgi/trace`, which
 * always tells the client its `loc`, and the web app's static files, so that the page (itself a
 * 451) can load and show the Access Denied screen.
 */
export default fp<GeoGateOptions>(
  async (app, options) => {
    const denied = new Set(options.deniedCountries);
    const trusts = trustFunction(options.trustProxy);
    const reader = options.geoipDb === undefined ? undefined : await openDatabase(options.geoipDb);
    if (reader !== undefined) {
      const { databaseType, buildEpoch, ipVersion } = reader.metadata;
      app.log.info({ file: options.geoipDb, databaseType, buildEpoch, ipVersion }, 'GeoIP database loaded');
    }

    function locate(request: FastifyRequest): string {
      return (
        countryFromProxy(request, options.geoHeader, trusts) ??
        (reader === undefined ? undefined : countryFromDatabase(reader, request.ip)) ??
        UNKNOWN_COUNTRY
      );
    }

    app.decorateRequest('country', UNKNOWN_COUNTRY);
    app.decorateRequest('regionDenied', false);
    app.addHook('onRequest', (request, reply, done) => {
      request.country = locate(request);
      if (!denied.has(request.country) || request.routeOptions.url === TRACE_PATH) {
        done();
        return;
      }
      // The web app's own files (the static wildcard) and unknown paths go on to web-static,
      // which serves the files and answers every page and unknown path with 451.
      const route = request.routeOptions.url;
      if (
        (request.method === 'GET' || request.method === 'HEAD') &&
        (route === '/*' || route === undefined)
      ) {
        request.regionDenied = true;
        done();
        return;
      }
      deny(request, reply);
    });

    app.get(TRACE_PATH, { schema: { hide: true } }, (request, reply) => {
      void reply
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(traceBody(request));
    });
  },
  { name: 'geo-gate' },
);
