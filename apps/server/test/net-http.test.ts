// The guarded HTTP(S) client against the lab: SSRF refusals, cut-offs, TLS reports, and the
// app's `net` decoration built from the lab environment. Every socket stays on loopback (the
// connect guard of the server project fails a test that tries anything else).
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labEnv, startDnsServer, startWebServer, type LabDnsServer, type WebServer } from '@rfckit/testlab';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type ConfigError } from '../src/config.ts';
import { createAddressPolicy, parseCidrList } from '../src/net/address.ts';
import { parseConnectTo } from '../src/net/connect-to.ts';
import { createDnsClient } from '../src/net/dns.ts';
import { NetError } from '../src/net/errors.ts';
import {
  bodyText,
  createHttpClient,
  headerValues,
  type FetchOptions,
  type HttpLimits,
} from '../src/net/http.ts';
import { outboundUserAgent } from '../src/plugins/net.ts';
import { buildTestApp } from './helpers/app.ts';

const USER_AGENT = outboundUserAgent('https://rfckit.example.org');
const dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-net-'));

let dns: LabDnsServer;
let web: WebServer;
/** A second lab server on another loopback address: the "public" host of the SSRF scenarios. */
let outside: WebServer;
/** Listens on 127.0.0.1 at outside's port: a rebinding client that looked the name up again would land here. */
let trap: net.Server;
const trapped: string[] = [];
/** A queries of the rebinding name so far (A and AAAA are asked in parallel: count A alone). */
let rebindQueries = 0;

const hops = (request: { url: string }) =>
  Number(new URL(request.url, 'http://x').searchParams.get('n') ?? '0');

beforeAll(async () => {
  web = await startWebServer({
    sites: {
      'www.example.test': {
        routes: {
          '/': {
            headers: [
              ['Content-Security-Policy', "default-src 'self'"],
              ['Set-Cookie', 'session=abc; Secure; HttpOnly'],
              ['X-Content-Type-Options', 'nosniff'],
              ['Set-Cookie', 'theme=dark'],
            ],
            body: 'welcome',
          },
          '/latin1': {
            headers: { 'Content-Type': 'text/plain; charset=iso-8859-1' },
            body: Buffer.from([0x63, 0x61, 0x66, 0xe9]),
          },
          '/to-https': { redirect: 'https://www.example.test/', status: 301 },
          '/to-other': { redirect: 'https://other.example.test/landing', status: 302 },
          '/relative': { redirect: '/', status: 307 },
          '/to-ftp': { redirect: 'ftp://www.example.test/file' },
          '/hop': (request) => {
            const n = hops(request);
            return n < 20 ? { redirect: `/hop?n=${n + 1}` } : { body: `arrived after ${n}` };
          },
          '/big': { bigBody: { bytes: 10 * 1024 * 1024 + 1 } },
          '/big-chunked': { bigBody: { bytes: 10 * 1024 * 1024 + 1, chunked: true } },
          '/exact': { bigBody: { bytes: 4096 } },
          '/slow': { slowBody: { bytes: 300, seconds: 30 } },
          '/late': { delayMs: 5000, body: 'too late' },
          '/to-loopback': { redirect: 'http://127.0.0.1/' },
          // a redirect that sets cookies on the way, as login and consent flows do
          '/cookie-hop': {
            redirect: '/',
            status: 302,
            headers: [
              ['Set-Cookie', 'sessionid=1; HttpOnly'],
              ['X-Hop', 'first'],
              ['Set-Cookie', 'consent=yes; Secure'],
            ],
          },
          '/to-expired': { redirect: 'https://expired.example.test/', status: 301 },
          // answers a CORS preflight by echoing what it was asked
          '/api': (request) => {
            const origin = request.headers.find(([name]) => name.toLowerCase() === 'origin')?.[1];
            return request.method === 'OPTIONS'
              ? {
                  status: 200,
                  headers: [
                    ['Access-Control-Allow-Origin', origin ?? 'none'],
                    ['Access-Control-Allow-Credentials', 'true'],
                    ['Vary', 'Origin'],
                  ],
                  body: 'preflight body',
                }
              : { status: 405, body: 'preflight only' };
          },
        },
      },
      'other.example.test': { routes: { '/landing': { body: 'landed' } } },
      'expired.example.test': {
        certificate: 'expired',
        routes: { '/': { body: 'expired but readable' }, '/onward': { redirect: '/', status: 302 } },
      },
      'wrong.example.test': { certificate: 'wrong-name' },
      'self.example.test': { certificate: 'self-signed' },
    },
  });
  outside = await startWebServer({
    ca: web.ca,
    address: '127.0.0.2',
    sites: {
      'public.example.test': {
        routes: {
          '/': { body: 'public page' },
          '/to-metadata': { redirect: 'http://169.254.169.254/latest/meta-data/' },
          '/to-lab': { redirect: `http://127.0.0.1:${web.httpPort}/` },
          '/to-internal-name': { redirect: `http://internal.example.test:${web.httpPort}/` },
        },
      },
      'rebind.example.test': { routes: { '/': { body: 'pinned' } } },
    },
  });
  trap = net.createServer((socket) => {
    trapped.push(String(socket.remotePort));
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    trap.once('error', reject);
    trap.listen(outside.httpPort, '127.0.0.1', resolve);
  });
  dns = await startDnsServer({
    zones: {
      'www.example.test': { A: '127.0.0.1' },
      'other.example.test': { A: '127.0.0.1' },
      'expired.example.test': { A: '127.0.0.1' },
      'wrong.example.test': { A: '127.0.0.1' },
      'self.example.test': { A: '127.0.0.1' },
      'public.example.test': { A: '127.0.0.2' },
      'internal.example.test': { A: '10.0.0.5' },
      'metadata.example.test': { A: '169.254.169.254' },
      'cgnat.example.test': { A: '100.64.0.1' },
      'ula.example.test': { AAAA: 'fd00::1' },
      'mapped.example.test': { AAAA: '::ffff:192.168.0.1' },
      'nat64.example.test': { AAAA: '64:ff9b::a00:1' },
      'mixed.example.test': { A: ['127.0.0.2', '172.16.5.4'] },
      'lab-by-name.example.test': { A: '127.0.0.1' },
      // answers the allowed address once, then loopback: only a second lookup would see it
      'rebind.example.test': ({ type }) => {
        if (type !== 'A') return {};
        rebindQueries += 1;
        return { A: rebindQueries === 1 ? '127.0.0.2' : '127.0.0.1', ttl: 0 };
      },
      'broken.example.test': { servfail: true },
      'silent.example.test': { timeout: true },
      'noaddress.example.test': { TXT: 'v=spf1 -all' },
    },
  });
});

afterAll(async () => {
  await Promise.all([
    web.close(),
    outside.close(),
    dns.close(),
    new Promise<void>((resolve) => trap.close(() => resolve())),
  ]);
  rmSync(dataDir, { recursive: true, force: true });
});

interface ClientSetup {
  allow?: string;
  connectTo?: string[];
  trustLab?: boolean;
  limits?: Partial<HttpLimits>;
}

function client(setup: ClientSetup = {}) {
  const resolver = createDnsClient({ servers: [dns.address], timeoutMs: 300, attempts: 1 }).session();
  return createHttpClient({
    resolver,
    policy: createAddressPolicy(parseCidrList(setup.allow ?? '')),
    connectTo: parseConnectTo((setup.connectTo ?? []).join(',')),
    extraCa: setup.trustLab === false ? [] : [web.ca.cert],
    userAgent: USER_AGENT,
    ...(setup.limits === undefined ? {} : { limits: setup.limits }),
  });
}

/** The rejection of a fetch, which must be a NetError. */
async function failure(setup: ClientSetup, url: string, options?: FetchOptions): Promise<NetError> {
  const error: unknown = await client(setup)
    .fetch(url, options)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(NetError);
  return error as NetError;
}

/** Connections and requests the lab saw since the last reset. */
function labTraffic() {
  return {
    connections: [...web.connections, ...outside.connections].length,
    requests: [...web.requests, ...outside.requests].length,
    trapped: trapped.length,
  };
}

function resetLab() {
  for (const server of [web, outside]) {
    server.connections.length = 0;
    server.requests.length = 0;
  }
  trapped.length = 0;
  dns.clearQueries();
}

const allowLab = { allow: '127.0.0.0/8' };
const https = (host: string, path = '/') => `https://${host}:${web.httpsPort}${path}`;
const http = (host: string, path = '/') => `http://${host}:${web.httpPort}${path}`;

describe('SSRF: the default configuration refuses every inward address, and nothing reaches the lab', () => {
  beforeEach(resetLab);

  const port = () => web.httpPort;
  const refused: [string, () => string, string][] = [
    ['127.0.0.1', () => `http://127.0.0.1:${port()}/`, 'Refusing to connect to 127.0.0.1: loopback address'],
    [
      'localhost',
      () => `http://localhost:${port()}/`,
      'Refusing to connect to localhost (127.0.0.1): loopback address',
    ],
    ['[::1]', () => `http://[::1]:${port()}/`, 'Refusing to connect to [::1]: loopback address'],
    ['10/8', () => 'http://10.1.2.3/', 'Refusing to connect to 10.1.2.3: private address'],
    ['172.16/12', () => 'http://172.20.0.1/', 'Refusing to connect to 172.20.0.1: private address'],
    ['192.168/16', () => 'https://192.168.0.1/', 'Refusing to connect to 192.168.0.1: private address'],
    [
      'cloud metadata',
      () => 'http://169.254.169.254/latest/meta-data/',
      'Refusing to connect to 169.254.169.254: link-local address',
    ],
    [
      '100.64/10',
      () => 'http://100.64.0.1/',
      'Refusing to connect to 100.64.0.1: carrier-grade NAT (shared) address',
    ],
    [
      '0.0.0.0',
      () => `http://0.0.0.0:${port()}/`,
      'Refusing to connect to 0.0.0.0: unspecified ("this network") address',
    ],
    [
      'decimal IPv4',
      () => `http://2130706433:${port()}/`,
      'Refusing to connect to 127.0.0.1: loopback address',
    ],
    [
      'octal IPv4',
      () => `http://0177.0.0.1:${port()}/`,
      'Refusing to connect to 127.0.0.1: loopback address',
    ],
    ['hex IPv4', () => `http://0x7f000001:${port()}/`, 'Refusing to connect to 127.0.0.1: loopback address'],
    ['short IPv4', () => `http://127.1:${port()}/`, 'Refusing to connect to 127.0.0.1: loopback address'],
    [
      'mixed hex/octal',
      () => 'http://0xa9.0376.169.254/',
      'Refusing to connect to 169.254.169.254: link-local address',
    ],
    [
      '::ffff:127.0.0.1',
      () => `http://[::ffff:127.0.0.1]:${port()}/`,
      'Refusing to connect to [::ffff:127.0.0.1]: IPv4-mapped form of 127.0.0.1 (loopback address)',
    ],
    [
      'a name resolving to 10/8',
      () => http('internal.example.test'),
      'Refusing to connect to internal.example.test (10.0.0.5): private address',
    ],
    [
      'a name resolving to the metadata address',
      () => 'http://metadata.example.test/',
      'Refusing to connect to metadata.example.test (169.254.169.254): link-local address',
    ],
    [
      'a name resolving to CGNAT',
      () => 'http://cgnat.example.test/',
      'Refusing to connect to cgnat.example.test (100.64.0.1): carrier-grade NAT (shared) address',
    ],
    [
      'a name resolving to unique-local IPv6',
      () => 'https://ula.example.test/',
      'Refusing to connect to ula.example.test ([fd00::1]): unique local (private) address',
    ],
    [
      'a name resolving to a mapped private address',
      () => 'https://mapped.example.test/',
      'Refusing to connect to mapped.example.test ([::ffff:192.168.0.1]): IPv4-mapped form of 192.168.0.1 (private address)',
    ],
    [
      'a name resolving to a NAT64 private address',
      () => 'https://nat64.example.test/',
      'Refusing to connect to nat64.example.test ([64:ff9b::a00:1]): NAT64 form of 10.0.0.1 (private address)',
    ],
    [
      'a name resolving to the lab',
      () => https('lab-by-name.example.test'),
      'Refusing to connect to lab-by-name.example.test (127.0.0.1): loopback address',
    ],
  ];

  it.each(refused)('refuses %s with a clear 4xx error', async (_label, url, message) => {
    const error = await failure({}, url());
    expect(error.code).toBe('OUTBOUND_BLOCKED');
    expect(error.statusCode).toBe(422);
    expect(error.message).toBe(message);
    expect(labTraffic()).toEqual({ connections: 0, requests: 0, trapped: 0 });
  });

  it('refuses a name when any one of its addresses is inward', async () => {
    const error = await failure({ allow: '127.0.0.2/32' }, `http://mixed.example.test:${outside.httpPort}/`);
    expect(error.message).toBe('Refusing to connect to mixed.example.test (172.16.5.4): private address');
    expect(labTraffic().connections).toBe(0);
  });

  it('still checks addresses that OUTBOUND_CONNECT_TO rewrites to', async () => {
    const error = await failure({ connectTo: web.connectTo() }, 'https://www.example.test/');
    expect(error.message).toBe('Refusing to connect to www.example.test (127.0.0.1): loopback address');
    expect(labTraffic().connections).toBe(0);
  });

  // 127.0.0.2 stands in for a public host (allowed by OUTBOUND_ALLOW=127.0.0.2/32, as a public address is by default)
  const publicOnly = { allow: '127.0.0.2/32' };

  it('reaches the allowed host, then refuses its redirects to inward addresses', async () => {
    const ok = await client(publicOnly).fetch(`http://public.example.test:${outside.httpPort}/`);
    expect(bodyText(ok)).toBe('public page');
    resetLab();

    for (const [path, message] of [
      ['/to-metadata', 'Refusing to follow a redirect to 169.254.169.254: link-local address'],
      ['/to-lab', 'Refusing to follow a redirect to 127.0.0.1: loopback address'],
      [
        '/to-internal-name',
        'Refusing to follow a redirect to internal.example.test (10.0.0.5): private address',
      ],
    ] as const) {
      const error = await failure(publicOnly, `http://public.example.test:${outside.httpPort}${path}`);
      expect(error.code).toBe('OUTBOUND_BLOCKED');
      expect(error.message).toBe(message);
      expect(error.details.redirects).toMatchObject([{ status: 302, address: '127.0.0.2' }]);
    }
    // only the first hop, three times, on the allowed host; the inward lab saw nothing
    expect(outside.requests.map((request) => request.path)).toEqual([
      '/to-metadata',
      '/to-lab',
      '/to-internal-name',
    ]);
    expect(web.connections).toEqual([]);
    expect(trapped).toEqual([]);
  });

  it('connects to the address it checked: a rebinding name is looked up once and never reaches loopback', async () => {
    rebindQueries = 0;
    const result = await client(publicOnly).fetch(`http://rebind.example.test:${outside.httpPort}/`);
    expect(bodyText(result)).toBe('pinned');
    expect(result.address).toBe('127.0.0.2');
    expect(dns.queriesFor('rebind.example.test', 'A')).toHaveLength(1);
    expect(outside.requests).toMatchObject([{ host: 'rebind.example.test', path: '/' }]);
    expect(trapped).toEqual([]);
    expect(web.connections).toEqual([]);

    // the next lookup would have said 127.0.0.1: a fresh fetch sees it and refuses
    const error = await failure(publicOnly, `http://rebind.example.test:${outside.httpPort}/`);
    expect(error.message).toBe('Refusing to connect to rebind.example.test (127.0.0.1): loopback address');
    expect(trapped).toEqual([]);
  });
});

describe('fetching from the lab', () => {
  beforeEach(resetLab);

  it('resolves through the lab DNS, pins the address, sends SNI, Host and an honest User-Agent', async () => {
    const result = await client(allowLab).fetch(https('www.example.test'));
    expect(result.status).toBe(200);
    expect(bodyText(result)).toBe('welcome');
    expect(result.url).toBe(https('www.example.test'));
    expect(result.address).toBe('127.0.0.1');
    expect(result.port).toBe(web.httpsPort);
    expect(dns.queriesFor('www.example.test', 'A')).toHaveLength(1);
    const [request] = web.requests;
    expect(request).toMatchObject({
      scheme: 'https',
      servername: 'www.example.test',
      host: 'www.example.test',
    });
    expect(request?.headers).toContainEqual(['user-agent', 'rfckit/0.1.0 (+https://rfckit.example.org)']);
    expect(request?.headers).toContainEqual(['host', `www.example.test:${web.httpsPort}`]);
  });

  it('returns every header line in order, Set-Cookie lines apart', async () => {
    const result = await client(allowLab).fetch(https('www.example.test'));
    const security = result.headers.filter(([name]) =>
      ['content-security-policy', 'set-cookie', 'x-content-type-options'].includes(name.toLowerCase()),
    );
    expect(security).toEqual([
      ['Content-Security-Policy', "default-src 'self'"],
      ['Set-Cookie', 'session=abc; Secure; HttpOnly'],
      ['X-Content-Type-Options', 'nosniff'],
      ['Set-Cookie', 'theme=dark'],
    ]);
    expect(headerValues(result.headers, 'set-cookie')).toEqual([
      'session=abc; Secure; HttpOnly',
      'theme=dark',
    ]);
  });

  it('decodes text with the declared charset', async () => {
    expect(bodyText(await client(allowLab).fetch(http('www.example.test', '/latin1')))).toBe('café');
  });

  it('reaches default-port URLs through OUTBOUND_CONNECT_TO without asking DNS', async () => {
    const result = await client({ ...allowLab, connectTo: web.connectTo() }).fetch(
      'https://www.example.test/',
    );
    expect(bodyText(result)).toBe('welcome');
    expect(result.port).toBe(web.httpsPort);
    expect(web.requests[0]?.headers).toContainEqual(['host', 'www.example.test']);
    expect(dns.queries).toEqual([]);
  });

  it('follows http → https → another host and reports each hop', async () => {
    const result = await client({ ...allowLab, connectTo: web.connectTo() }).fetch(
      'http://www.example.test/to-https',
    );
    expect(result.redirects).toMatchObject([
      { url: 'http://www.example.test/to-https', status: 301, location: 'https://www.example.test/' },
    ]);
    expect(result.redirects[0]?.tls).toBeUndefined();
    expect(result.url).toBe('https://www.example.test/');
    expect(result.tls?.verified).toBe(true);

    const chain = await client({ ...allowLab, connectTo: web.connectTo() }).fetch(
      'https://www.example.test/to-other',
    );
    expect(chain.redirects).toHaveLength(1);
    expect(chain.redirects[0]).toMatchObject({
      status: 302,
      location: 'https://other.example.test/landing',
      tls: { verified: true, servername: 'www.example.test' },
    });
    expect(chain.url).toBe('https://other.example.test/landing');
    expect(chain.tls?.certificates[0]?.subjectAltNames).toEqual(['DNS:other.example.test']);
    expect(bodyText(chain)).toBe('landed');

    const relative = await client(allowLab).fetch(https('www.example.test', '/relative'));
    expect(relative.url).toBe(https('www.example.test', '/'));
    expect(relative.redirects[0]?.status).toBe(307);
  });

  it('can stop at the first response', async () => {
    const result = await client(allowLab).fetch(http('www.example.test', '/to-https'), {
      followRedirects: false,
    });
    expect(result.status).toBe(301);
    expect(result.redirects).toEqual([]);
  });

  it('keeps each redirect’s own header lines, Set-Cookie lines apart', async () => {
    const result = await client({ ...allowLab, connectTo: web.connectTo() }).fetch(
      'https://www.example.test/cookie-hop',
    );
    expect(bodyText(result)).toBe('welcome');
    const [hop] = result.redirects;
    expect(hop).toMatchObject({ status: 302, location: '/' });
    expect(hop?.headers.filter(([name]) => ['set-cookie', 'x-hop'].includes(name.toLowerCase()))).toEqual([
      ['Set-Cookie', 'sessionid=1; HttpOnly'],
      ['X-Hop', 'first'],
      ['Set-Cookie', 'consent=yes; Secure'],
    ]);
    expect(headerValues(hop?.headers ?? [], 'location')).toEqual(['/']);
  });

  it('sends a CORS preflight with the caller’s Origin and Access-Control-Request-Method', async () => {
    const result = await client(allowLab).fetch(https('www.example.test', '/api'), {
      method: 'OPTIONS',
      headers: { Origin: 'https://observer.example.org', 'Access-Control-Request-Method': 'GET' },
      followRedirects: false,
    });
    expect(result.status).toBe(200);
    expect(bodyText(result)).toBe('preflight body');
    expect(headerValues(result.headers, 'access-control-allow-origin')).toEqual([
      'https://observer.example.org',
    ]);
    const [request] = web.requests;
    expect(request?.method).toBe('OPTIONS');
    expect(request?.headers).toContainEqual(['Origin', 'https://observer.example.org']);
    expect(request?.headers).toContainEqual(['Access-Control-Request-Method', 'GET']);
  });

  it('does HEAD without reading a body', async () => {
    const result = await client(allowLab).fetch(https('www.example.test'), { method: 'HEAD' });
    expect(result.status).toBe(200);
    expect(result.body.length).toBe(0);
    expect(web.requests[0]?.method).toBe('HEAD');
  });
});

describe('cut-offs', () => {
  it('cuts a body over 10 MB off, whether announced or streamed', async () => {
    for (const path of ['/big', '/big-chunked']) {
      const error = await failure(allowLab, http('www.example.test', path));
      expect(error.code).toBe('BODY_TOO_LARGE');
      expect(error.statusCode).toBe(502);
      expect(error.message).toBe('Response body exceeds 10 MiB (the size limit)');
    }
  });

  it('takes a body exactly at the limit', async () => {
    const result = await client({ ...allowLab, limits: { maxBodyBytes: 4096 } }).fetch(
      http('www.example.test', '/exact'),
    );
    expect(result.body.length).toBe(4096);
    const error = await failure(
      { ...allowLab, limits: { maxBodyBytes: 4095 } },
      http('www.example.test', '/exact'),
    );
    expect(error.message).toBe('Response body exceeds 4095 bytes (the size limit)');
  });

  it('gives up on a 30 s slow body at the total time limit', async () => {
    const error = await failure(
      { ...allowLab, limits: { totalTimeoutMs: 1000 } },
      http('www.example.test', '/slow'),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(error.statusCode).toBe(504);
    expect(error.message).toBe(
      `Fetching ${http('www.example.test', '/slow')} took longer than the 1 s limit`,
    );
  });

  it('gives up on a server that sends no response headers in time', async () => {
    const error = await failure(
      { ...allowLab, limits: { firstByteTimeoutMs: 300 } },
      https('www.example.test', '/late'),
    );
    expect(error.code).toBe('FIRST_BYTE_TIMEOUT');
    expect(error.statusCode).toBe(504);
    expect(error.message).toBe('www.example.test sent no response within 300 ms');
  });

  it('stops after 10 redirects of a chain of 20, and follows all 20 when allowed to', async () => {
    resetLab();
    const error = await failure(allowLab, https('www.example.test', '/hop'));
    expect(error.code).toBe('TOO_MANY_REDIRECTS');
    expect(error.message).toBe('Too many redirects (more than 10)');
    expect(error.details.redirects).toHaveLength(11);
    expect(web.requests).toHaveLength(11);

    const result = await client({ ...allowLab, limits: { maxRedirects: 20 } }).fetch(
      https('www.example.test', '/hop'),
    );
    expect(bodyText(result)).toBe('arrived after 20');
    expect(result.redirects.map((hop) => hop.location)).toEqual(
      Array.from({ length: 20 }, (_, n) => `/hop?n=${n + 1}`),
    );
  });

  it('refuses redirects to other schemes', async () => {
    const error = await failure(allowLab, http('www.example.test', '/to-ftp'));
    expect(error.code).toBe('INVALID_REDIRECT');
    expect(error.message).toBe(
      `www.example.test:${web.httpPort} redirected to "ftp://www.example.test/file", which is not an http(s) URL`,
    );
  });
});

describe('TLS reports', () => {
  it('reports a valid certificate with its chain, protocol and cipher', async () => {
    const result = await client(allowLab).fetch(https('www.example.test'));
    const tls = result.tls;
    expect(tls).toMatchObject({ verified: true, hostnameMatches: true, servername: 'www.example.test' });
    expect(tls?.verificationError).toBeUndefined();
    expect(tls?.protocol).toBe('TLSv1.3');
    expect(tls?.cipher.standardName).toMatch(/^TLS_/);
    const [leaf, root] = tls?.certificates ?? [];
    const expected = new X509Certificate(web.certificate('www.example.test').cert);
    expect(leaf).toMatchObject({
      subject: 'CN=www.example.test',
      issuer: new X509Certificate(web.ca.cert).subject,
      subjectAltNames: ['DNS:www.example.test'],
      fingerprint256: expected.fingerprint256,
      validTo: expected.validToDate.toISOString(),
      selfSigned: false,
      publicKey: { type: 'ec', curve: 'prime256v1' },
    });
    expect(root?.fingerprint256).toBe(new X509Certificate(web.ca.cert).fingerprint256);
  });

  const broken: [string, string, string, boolean][] = [
    ['expired.example.test', 'expired', 'CERT_HAS_EXPIRED', true],
    ['wrong.example.test', 'wrong-name', 'ERR_TLS_CERT_ALTNAME_INVALID', false],
    ['self.example.test', 'self-signed', 'DEPTH_ZERO_SELF_SIGNED_CERT', true],
  ];

  it.each(broken)('fails %s by default with a clear error', async (host, problem) => {
    const error = await failure(allowLab, https(host));
    expect(error.code).toBe('TLS_CERTIFICATE_INVALID');
    expect(error.statusCode).toBe(502);
    const words = {
      expired: 'the certificate has expired (on ',
      'wrong-name': `the certificate is not valid for ${host} (it covers DNS:not-${host})`,
      'self-signed': 'the certificate is self-signed',
    }[problem];
    expect(error.message).toContain(`The certificate of ${host} is not valid: ${words}`);
    expect(error.details.tls).toMatchObject({ verified: false, verificationError: { problem } });
  });

  it.each(broken)('reports %s as %s when asked to report', async (host, problem, code, hostnameMatches) => {
    const result = await client(allowLab).fetch(https(host), { certificateErrors: 'report' });
    expect(result.status).toBe(200);
    expect(result.tls).toMatchObject({
      verified: false,
      hostnameMatches,
      verificationError: { code, problem },
    });
    const leaf = new X509Certificate(web.certificate(host).cert);
    expect(result.tls?.certificates[0]?.fingerprint256).toBe(leaf.fingerprint256);
    if (problem === 'expired')
      expect(Date.parse(result.tls?.certificates[0]?.validTo ?? '')).toBeLessThan(Date.now());
    if (problem === 'self-signed') expect(result.tls?.certificates).toMatchObject([{ selfSigned: true }]);
  });

  it('reports a bad certificate on any hop of a chain and still returns the page', async () => {
    const into = await client({ ...allowLab, connectTo: web.connectTo() }).fetch(
      'http://www.example.test/to-expired',
      { certificateErrors: 'report' },
    );
    expect(into.redirects).toHaveLength(1);
    expect(into.redirects[0]?.tls).toBeUndefined();
    expect(into.url).toBe('https://expired.example.test/');
    expect(bodyText(into)).toBe('expired but readable');
    expect(into.tls).toMatchObject({ verified: false, verificationError: { problem: 'expired' } });

    const from = await client({ ...allowLab, connectTo: web.connectTo() }).fetch(
      'https://expired.example.test/onward',
      { certificateErrors: 'report' },
    );
    expect(from.redirects[0]?.tls).toMatchObject({
      verified: false,
      verificationError: { problem: 'expired' },
    });
    expect(from.tls?.verified).toBe(false);

    // by default the same chain stops at the bad hop, with the hops so far
    const error = await failure(
      { ...allowLab, connectTo: web.connectTo() },
      'http://www.example.test/to-expired',
    );
    expect(error.code).toBe('TLS_CERTIFICATE_INVALID');
    expect(error.details.redirects).toMatchObject([
      { status: 301, location: 'https://expired.example.test/' },
    ]);
  });

  it('does not trust the lab without its CA', async () => {
    const error = await failure({ ...allowLab, trustLab: false }, https('www.example.test'));
    expect(error.code).toBe('TLS_CERTIFICATE_INVALID');
    expect(error.details.tls).toMatchObject({ verificationError: { problem: 'untrusted' } });
  });
});

describe('input and DNS errors', () => {
  it.each([
    ['not a url', 'Not a valid URL: "not a url"'],
    ['ftp://www.example.test/', 'Only http and https URLs can be fetched (got ftp:)'],
    ['file:///etc/passwd', 'Only http and https URLs can be fetched (got file:)'],
    ['https://user:pw@www.example.test/', 'URLs with a user name or password are not fetched'],
  ])('refuses %s', async (url, message) => {
    const error = await failure(allowLab, url);
    expect(error).toMatchObject({ code: 'INVALID_URL', statusCode: 400, message });
  });

  it('tells a missing name, a name without addresses, SERVFAIL and silence apart', async () => {
    expect(await failure(allowLab, 'https://nowhere.example.test/')).toMatchObject({
      code: 'DNS_NOT_FOUND',
      statusCode: 422,
      message: 'nowhere.example.test does not exist (NXDOMAIN)',
    });
    expect(await failure(allowLab, 'https://noaddress.example.test/')).toMatchObject({
      code: 'DNS_NO_ADDRESS',
      statusCode: 422,
      message: 'noaddress.example.test has no A or AAAA record',
    });
    expect(await failure(allowLab, 'https://broken.example.test/')).toMatchObject({
      code: 'DNS_FAILED',
      statusCode: 502,
    });
    // silence is our resolver not answering: we could not check (docs/architecture.md §6)
    expect(await failure(allowLab, 'https://silent.example.test/')).toMatchObject({
      code: 'RESOLVER_UNAVAILABLE',
      statusCode: 503,
      message: 'Our DNS resolver did not answer, so we could not look up silent.example.test',
    });
  });

  it('reports a refused connection', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(allowLab, `http://127.0.0.1:${port}/`);
    expect(error.code).toBe('CONNECT_FAILED');
    expect(error.message).toBe(`Nothing answered on port ${port} at 127.0.0.1`);
    expect(error.tried).toEqual([{ target: `http://127.0.0.1:${port}/`, outcome: error.message }]);
  });
});

describe('configuration and app.net', () => {
  it('validates the OUTBOUND_* variables', () => {
    const issues = (env: Record<string, string>): readonly string[] => {
      try {
        loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32), ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).issues;
      }
    };
    expect(issues({ OUTBOUND_ALLOW: '127.0.0.0/8,nope' })).toEqual([
      'OUTBOUND_ALLOW must be a comma-separated list of CIDR ranges: "nope" is not an IP address or CIDR range such as 127.0.0.0/8',
    ]);
    expect(issues({ OUTBOUND_CONNECT_TO: 'www.example.test:443:lab.example.test:8443' })).toEqual([
      'OUTBOUND_CONNECT_TO must be a comma-separated list: "www.example.test:443:lab.example.test:8443" is not host:port:address:port (e.g. www.example.test:443:127.0.0.1:8443; the target must be an IP address)',
    ]);
    expect(issues({ OUTBOUND_CA_FILE: '/nonexistent/ca.pem' })).toEqual([
      'OUTBOUND_CA_FILE must be a readable PEM file (ENOENT on /nonexistent/ca.pem)',
    ]);
    for (const bad of ['50', '1.5s', '300001'])
      expect(issues({ OUTBOUND_TIMEOUT_MS: bad })).toEqual([
        `OUTBOUND_TIMEOUT_MS must be a number of milliseconds from 100 to 300000 (got "${bad}")`,
      ]);
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'x'.repeat(32),
      OUTBOUND_ALLOW: ' 127.0.0.0/8 , ::1 ',
      OUTBOUND_CONNECT_TO: `www.example.test:443:127.0.0.1:8443,:80:[::1]:8080`,
      OUTBOUND_CA_FILE: web.caFile,
      OUTBOUND_TIMEOUT_MS: '2500',
    });
    expect(config.outboundAllow).toEqual(['127.0.0.0/8', '::1/128']);
    expect(config.outboundConnectTo).toEqual([
      { host: 'www.example.test', port: 443, address: '127.0.0.1', toPort: 8443 },
      { host: undefined, port: 80, address: '::1', toPort: 8080 },
    ]);
    expect(config.outboundCaFile).toBe(web.caFile);
    expect(config.outboundTimeoutMs).toBe(2500);
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) }).outboundTimeoutMs).toBe(30_000);
  });

  it('decorates the app with the net layer built from the lab environment', async () => {
    const app = await buildTestApp({
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://rfckit.example.org',
      ...labEnv({ dns, web }),
    });
    try {
      resetLab();
      const session = app.net.session();
      const result = await session.fetch('https://www.example.test/');
      expect(bodyText(result)).toBe('welcome');
      expect(result.tls?.verified).toBe(true);
      expect(web.requests[0]?.headers).toContainEqual(['user-agent', USER_AGENT]);
      const txt = await session.dns.query('noaddress.example.test', 'TXT');
      expect(txt.status).toBe('ok');
      expect(await session.dns.resolveAddresses('www.example.test')).toEqual(['127.0.0.1']);
      // the lab environment's OUTBOUND_ALLOW is what lets that through
      expect(app.net.policy.check('127.0.0.1').allowed).toBe(true);
      expect(app.net.policy.check('10.0.0.1').allowed).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('refuses the lab when OUTBOUND_ALLOW is left at its default', async () => {
    const app = await buildTestApp({
      DATA_DIR: dataDir,
      ...labEnv({ dns, web, allow: false }),
    });
    try {
      resetLab();
      await expect(app.net.session().fetch('https://www.example.test/')).rejects.toMatchObject({
        code: 'OUTBOUND_BLOCKED',
        message: 'Refusing to connect to www.example.test (127.0.0.1): loopback address',
      });
      expect(web.connections).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
