import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { createTestCa, type IssuedCertificate, type TestCa } from './ca.ts';

/** Which certificate a site's HTTPS answers with. */
export type CertificateVariant = 'valid' | 'expired' | 'wrong-name' | 'self-signed';

/** Headers in order; several entries of one name (Set-Cookie) stay separate lines. */
export type LabHeaders =
  ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string | readonly string[]>>;

export interface RouteSpec {
  /** Default 200, or 302 with `redirect`. */
  status?: number;
  headers?: LabHeaders;
  body?: string | Uint8Array;
  /** Location to redirect to (any URL, absolute or relative). */
  redirect?: string;
  /** Sends `bytes` bytes spread evenly over `seconds` seconds (Content-Length announced up front). */
  slowBody?: { bytes: number; seconds: number };
  /** Streams `bytes` bytes; with `chunked` no Content-Length is announced. */
  bigBody?: { bytes: number; chunked?: boolean };
  /** Waits this long before sending anything (a server slow to answer). */
  delayMs?: number;
}

/** A fixed answer, or one computed from the request (a redirect chain, an echo). */
export type Route = RouteSpec | ((request: LabRequest) => RouteSpec);

export interface SiteSpec {
  /** Default `valid`: issued by the lab CA for the site's name. Or a certificate issued by hand. */
  certificate?: CertificateVariant | IssuedCertificate;
  /** Keyed by path without the query; `*` answers every other path. Default: `/` answers 200 `ok`. */
  routes?: Readonly<Record<string, Route>>;
}

export interface LabConnection {
  scheme: 'http' | 'https';
  remoteAddress: string;
  remotePort: number;
  /** Set once the TLS handshake has told the server the name the client asked for (SNI). */
  servername?: string;
}

export interface LabRequest {
  scheme: 'http' | 'https';
  /** The Host header without a port, lower-case. */
  host: string;
  /** The SNI name of the TLS connection, for https. */
  servername?: string;
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Path without the query. */
  path: string;
  /** Request headers in the order they arrived. */
  headers: [string, string][];
}

export interface WebServer {
  readonly ca: TestCa;
  /** A PEM file holding the lab CA certificate (removed on close), for OUTBOUND_CA_FILE. */
  readonly caFile: string;
  /** The loopback address both servers listen on. */
  readonly address: string;
  readonly httpPort: number;
  readonly httpsPort: number;
  /** Every TCP connection either server accepted, in order. */
  readonly connections: LabConnection[];
  /** Every request either server answered, in order. */
  readonly requests: LabRequest[];
  /** Curl-style `host:port:address:labport` entries mapping each site's 80 and 443 to the lab. */
  connectTo(): string[];
  /** Adds or replaces a site while running. */
  addSite(host: string, spec: SiteSpec): Promise<void>;
  /** The certificate a site's HTTPS answers with. */
  certificate(host: string): IssuedCertificate;
  close(): Promise<void>;
}

export interface WebServerOptions {
  sites: Readonly<Record<string, SiteSpec>>;
  /** Reuse a CA (to share trust with other lab servers); default: a new one. */
  ca?: TestCa;
  /** Loopback address to listen on; default 127.0.0.1 (any of 127.0.0.0/8 works on Linux). */
  address?: string;
}

const DAY = 86_400_000;
const CHUNK = 64 * 1024;
const DRIBBLE_INTERVAL_MS = 100;

interface Site {
  routes: Readonly<Record<string, Route>>;
  certificate: IssuedCertificate;
  context: tls.SecureContext;
}

async function certificateFor(
  ca: TestCa,
  host: string,
  variant: SiteSpec['certificate'],
): Promise<IssuedCertificate> {
  if (typeof variant === 'object') return variant;
  switch (variant ?? 'valid') {
    case 'expired':
      return ca.issue({
        names: [host],
        notBefore: new Date(Date.now() - 400 * DAY),
        notAfter: new Date(Date.now() - 30 * DAY),
      });
    case 'wrong-name':
      return ca.issue({ names: [`not-${host}`] });
    case 'self-signed':
      return ca.issue({ names: [host], selfSigned: true });
    default:
      return ca.issue({ names: [host] });
  }
}

function headerList(headers: LabHeaders | undefined): [string, string][] {
  if (headers === undefined) return [];
  if (Array.isArray(headers)) return headers.map(([name, value]) => [name, value]);
  return Object.entries(headers as Record<string, string | readonly string[]>).flatMap(([name, value]) =>
    typeof value === 'string'
      ? [[name, value] as [string, string]]
      : value.map((v): [string, string] => [name, v]),
  );
}

function hostOf(request: IncomingMessage): string {
  const raw = (request.headers.host ?? '').toLowerCase();
  // [v6]:port, name:port or a bare name
  if (raw.startsWith('[')) return raw.slice(0, raw.indexOf(']') + 1);
  return raw.replace(/:\d+$/, '');
}

function rawHeaders(request: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2)
    pairs.push([request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string]);
  return pairs;
}

/** Writes `total` bytes of `x` in slices as the socket drains, until done or the client goes away. */
function streamBytes(response: ServerResponse, total: number): void {
  const block = Buffer.alloc(CHUNK, 'x');
  let left = total;
  const pump = (): void => {
    while (left > 0 && !response.destroyed) {
      const size = Math.min(CHUNK, left);
      left -= size;
      if (!response.write(size === CHUNK ? block : block.subarray(0, size))) {
        response.once('drain', pump);
        return;
      }
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

function dribble(response: ServerResponse, total: number, seconds: number): void {
  const ticks = Math.max(1, Math.round((seconds * 1000) / DRIBBLE_INTERVAL_MS));
  const per = Math.max(1, Math.ceil(total / ticks));
  let left = total;
  const timer = setInterval(() => {
    if (response.destroyed) {
      clearInterval(timer);
      return;
    }
    const size = Math.min(per, left);
    left -= size;
    response.write(Buffer.alloc(size, 'x'));
    if (left === 0) {
      clearInterval(timer);
      response.end();
    }
  }, DRIBBLE_INTERVAL_MS);
  response.on('close', () => clearInterval(timer));
}

function answer(response: ServerResponse, spec: RouteSpec): void {
  const headers = headerList(spec.headers);
  if (spec.redirect !== undefined) headers.push(['Location', spec.redirect]);
  const status = spec.status ?? (spec.redirect === undefined ? 200 : 302);
  const has = (name: string): boolean => headers.some(([key]) => key.toLowerCase() === name);

  if (spec.bigBody !== undefined) {
    if (!spec.bigBody.chunked) headers.push(['Content-Length', String(spec.bigBody.bytes)]);
    response.writeHead(status, headers.flat());
    streamBytes(response, spec.bigBody.bytes);
    return;
  }
  if (spec.slowBody !== undefined) {
    headers.push(['Content-Length', String(spec.slowBody.bytes)]);
    response.writeHead(status, headers.flat());
    // headers go out now: the client sees the first byte at once and then waits on the body
    response.flushHeaders();
    dribble(response, spec.slowBody.bytes, spec.slowBody.seconds);
    return;
  }
  const body = spec.body === undefined ? Buffer.alloc(0) : Buffer.from(spec.body);
  if (!has('content-type') && spec.body !== undefined)
    headers.push(['Content-Type', 'text/plain; charset=utf-8']);
  headers.push(['Content-Length', String(body.length)]);
  response.writeHead(status, headers.flat());
  response.end(body);
}

/**
 * Starts an HTTP and an HTTPS server on 127.0.0.1 (or `address`; free ports) serving the named sites: SNI
 * picks each site's certificate, the Host header picks its routes. Every connection and
 * request is logged, so a test can prove that nothing reached a server.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const ca = options.ca ?? (await createTestCa());
  const address = options.address ?? '127.0.0.1';
  const sites = new Map<string, Site>();
  const connections: LabConnection[] = [];
  const requests: LabRequest[] = [];
  const sockets = new Set<Socket>();

  const addSite = async (host: string, spec: SiteSpec): Promise<void> => {
    const certificate = await certificateFor(ca, host.toLowerCase(), spec.certificate);
    sites.set(host.toLowerCase(), {
      routes: spec.routes ?? { '/': { body: 'ok' } },
      certificate,
      context: tls.createSecureContext({ cert: certificate.chain, key: certificate.key }),
    });
  };
  for (const [host, spec] of Object.entries(options.sites)) await addSite(host, spec);
  // what a client that names no lab site (or sends no SNI) gets
  const fallback = await ca.issue({ names: ['lab.invalid'] });

  const handle = (scheme: 'http' | 'https') => (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const servername =
      scheme === 'https' ? (request.socket as tls.TLSSocket).servername || undefined : undefined;
    const entry: LabRequest = {
      scheme,
      host: hostOf(request),
      method: request.method ?? 'GET',
      url,
      path: url.split('?', 1)[0] ?? '/',
      headers: rawHeaders(request),
      ...(servername === undefined ? {} : { servername }),
    };
    requests.push(entry);
    // the request body (if any) is not part of any lab scenario
    request.resume();
    const site = sites.get(entry.host);
    if (site === undefined) {
      answer(response, { status: 421, body: `no lab site named ${entry.host}\n` });
      return;
    }
    const route = site.routes[entry.path] ?? site.routes['*'];
    if (route === undefined) {
      answer(response, { status: 404, body: 'not found\n' });
      return;
    }
    const spec = typeof route === 'function' ? route(entry) : route;
    if (spec.delayMs === undefined) {
      answer(response, spec);
      return;
    }
    const timer = setTimeout(() => answer(response, spec), spec.delayMs);
    response.on('close', () => clearTimeout(timer));
  };

  const track = (scheme: 'http' | 'https') => (socket: Socket) => {
    const entry: LabConnection = {
      scheme,
      remoteAddress: socket.remoteAddress ?? '',
      remotePort: socket.remotePort ?? 0,
    };
    connections.push(entry);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    return entry;
  };

  const httpServer = http.createServer(handle('http'));
  httpServer.on('connection', track('http'));
  const httpsServer = https.createServer(
    {
      cert: fallback.chain,
      key: fallback.key,
      SNICallback: (servername, callback) => {
        callback(null, sites.get(servername.toLowerCase())?.context);
      },
    },
    handle('https'),
  );
  const pending = new WeakMap<Socket, LabConnection>();
  const trackHttps = track('https');
  httpsServer.on('connection', (socket: Socket) => pending.set(socket, trackHttps(socket)));
  httpsServer.on('secureConnection', (socket: tls.TLSSocket) => {
    // the TLS socket wraps the TCP one the 'connection' event logged
    const entry = pending.get((socket as unknown as { _parent?: Socket })._parent ?? socket);
    if (entry !== undefined && socket.servername) entry.servername = socket.servername;
  });
  // failed handshakes (a client refusing our certificate) are part of the scenarios, not errors
  httpsServer.on('tlsClientError', () => {});

  const listen = (server: http.Server | https.Server): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, address, () => resolve((server.address() as AddressInfo).port));
    });
  const httpPort = await listen(httpServer);
  const httpsPort = await listen(httpsServer);

  const caDir = mkdtempSync(path.join(tmpdir(), 'rfckit-lab-ca-'));
  const caFile = path.join(caDir, 'ca.pem');
  writeFileSync(caFile, ca.cert);

  return {
    ca,
    caFile,
    address,
    httpPort,
    httpsPort,
    connections,
    requests,
    connectTo: () =>
      [...sites.keys()].flatMap((host) => [
        `${host}:80:${address}:${httpPort}`,
        `${host}:443:${address}:${httpsPort}`,
      ]),
    addSite,
    certificate(host) {
      const site = sites.get(host.toLowerCase());
      if (site === undefined) throw new Error(`no lab site named ${host}`);
      return site.certificate;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        [httpServer, httpsServer].map(
          (server) => new Promise<void>((resolve) => server.close(() => resolve())),
        ),
      );
      rmSync(caDir, { recursive: true, force: true });
    },
  };
}
