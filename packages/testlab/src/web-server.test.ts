import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labEnv } from './lab-env.ts';
import { startWebServer, type WebServer } from './web-server.ts';

interface Answer {
  status: number;
  rawHeaders: string[];
  body: Buffer;
  peer?: { subjectaltname?: string; valid_to: string; issuer: Record<string, string> };
  authorizationError?: string;
}

/** One request to the lab as a client that resolved `host` to 127.0.0.1 would send it. */
function get(
  lab: WebServer,
  scheme: 'http' | 'https',
  host: string,
  path: string,
  options: { trust?: boolean; abortAfterBytes?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const onResponse = (response: IncomingMessage): void => {
      const chunks: Buffer[] = [];
      let received = 0;
      const socket = response.socket as TLSSocket;
      const peer = scheme === 'https' ? socket.getPeerCertificate() : undefined;
      const authorizationError =
        scheme === 'https' ? (socket.authorizationError as unknown as string) : undefined;
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (options.abortAfterBytes !== undefined && received >= options.abortAfterBytes) response.destroy();
      });
      const done = (): void =>
        resolve({
          status: response.statusCode ?? 0,
          rawHeaders: response.rawHeaders,
          body: Buffer.concat(chunks),
          ...(peer === undefined ? {} : { peer: peer as unknown as NonNullable<Answer['peer']> }),
          ...(authorizationError ? { authorizationError } : {}),
        });
      response.on('end', done);
      response.on('close', done);
    };
    const common = { host: '127.0.0.1', path, headers: { host }, agent: false as const };
    const request =
      scheme === 'https'
        ? https.get(
            {
              ...common,
              port: lab.httpsPort,
              servername: host,
              ca: [lab.ca.cert],
              rejectUnauthorized: options.trust ?? true,
            },
            onResponse,
          )
        : http.get({ ...common, port: lab.httpPort }, onResponse);
    request.on('error', reject);
  });
}

function headerPairs(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
  return pairs;
}

// real sockets on loopback and deliberate waits: not bound to the 5 s default
describe('startWebServer', { timeout: 30_000 }, () => {
  let lab: WebServer;

  beforeAll(async () => {
    lab = await startWebServer({
      sites: {
        'www.example.test': {
          routes: {
            '/': {
              headers: [
                ['Strict-Transport-Security', 'max-age=63072000'],
                ['Set-Cookie', 'a=1; Secure'],
                ['X-Frame-Options', 'DENY'],
                ['Set-Cookie', 'b=2; HttpOnly'],
              ],
              body: '<!doctype html><title>hi</title>',
            },
            '/teapot': { status: 418, headers: { 'Content-Type': 'text/x-tea', Vary: ['Accept', 'Origin'] } },
            '/moved': { redirect: 'https://other.example.test/landing', status: 301 },
            '/echo': (request) => ({ body: `${request.method} ${request.url} via ${request.scheme}` }),
            '/slow': { slowBody: { bytes: 10, seconds: 0.3 } },
            '/big': { bigBody: { bytes: 3 * 1024 * 1024 } },
            '/big-chunked': { bigBody: { bytes: 200_000, chunked: true } },
            '/late': { delayMs: 200, body: 'late' },
          },
        },
        'expired.example.test': { certificate: 'expired' },
        'wrong.example.test': { certificate: 'wrong-name' },
        'self.example.test': { certificate: 'self-signed' },
      },
    });
  }, 60_000); // the lab makes its CA and leaf keys
  afterAll(async () => {
    await lab.close();
  });

  it('listens on two distinct loopback ports and writes the CA for clients', () => {
    expect(lab.httpPort).toBeGreaterThan(0);
    expect(lab.httpsPort).toBeGreaterThan(0);
    expect(lab.httpsPort).not.toBe(lab.httpPort);
    expect(readFileSync(lab.caFile, 'utf8')).toBe(lab.ca.cert);
  });

  it('serves headers in order, several Set-Cookie lines included, over https with a trusted certificate', async () => {
    const answer = await get(lab, 'https', 'www.example.test', '/');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('<!doctype html><title>hi</title>');
    const chosen = headerPairs(answer.rawHeaders).filter(([name]) =>
      ['strict-transport-security', 'set-cookie', 'x-frame-options'].includes(name.toLowerCase()),
    );
    expect(chosen).toEqual([
      ['Strict-Transport-Security', 'max-age=63072000'],
      ['Set-Cookie', 'a=1; Secure'],
      ['X-Frame-Options', 'DENY'],
      ['Set-Cookie', 'b=2; HttpOnly'],
    ]);
    expect(answer.peer?.subjectaltname).toBe('DNS:www.example.test');
    expect(answer.authorizationError).toBeUndefined();
  });

  it('serves the same site over plain http, with any status and multi-valued headers', async () => {
    const answer = await get(lab, 'http', 'www.example.test', '/teapot');
    expect(answer.status).toBe(418);
    const pairs = headerPairs(answer.rawHeaders);
    expect(pairs).toContainEqual(['Content-Type', 'text/x-tea']);
    expect(pairs.filter(([name]) => name === 'Vary')).toEqual([
      ['Vary', 'Accept'],
      ['Vary', 'Origin'],
    ]);
  });

  it('redirects anywhere and computes answers from the request', async () => {
    const moved = await get(lab, 'http', 'www.example.test', '/moved');
    expect(moved.status).toBe(301);
    expect(headerPairs(moved.rawHeaders)).toContainEqual(['Location', 'https://other.example.test/landing']);
    const echo = await get(lab, 'https', 'www.example.test', '/echo?x=1');
    expect(echo.body.toString()).toBe('GET /echo?x=1 via https');
  });

  it('answers 404 for unknown paths and 421 for unknown sites', async () => {
    expect((await get(lab, 'http', 'www.example.test', '/nope')).status).toBe(404);
    expect((await get(lab, 'http', 'nobody.example.test', '/')).status).toBe(421);
  });

  it('dribbles a slow body and streams a big one', async () => {
    const slow = await get(lab, 'http', 'www.example.test', '/slow');
    expect(slow.body.toString()).toBe('x'.repeat(10));
    const big = await get(lab, 'http', 'www.example.test', '/big');
    expect(headerPairs(big.rawHeaders)).toContainEqual(['Content-Length', String(3 * 1024 * 1024)]);
    expect(big.body.length).toBe(3 * 1024 * 1024);
    const chunked = await get(lab, 'https', 'www.example.test', '/big-chunked');
    expect(headerPairs(chunked.rawHeaders)).toContainEqual(['Transfer-Encoding', 'chunked']);
    expect(chunked.body.length).toBe(200_000);
  });

  it('answers late when told to', async () => {
    const before = lab.requests.length;
    const late = await get(lab, 'http', 'www.example.test', '/late');
    expect(late.body.toString()).toBe('late');
    // the request is logged on arrival, before the answer
    expect(lab.requests.slice(before).map((request) => request.path)).toEqual(['/late']);
  });

  it('stops streaming when the client goes away', async () => {
    const partial = await get(lab, 'http', 'www.example.test', '/big', { abortAfterBytes: 1 });
    expect(partial.body.length).toBeLessThan(3 * 1024 * 1024);
  });

  it('answers with expired, wrongly named and self-signed certificates', async () => {
    const expired = await get(lab, 'https', 'expired.example.test', '/', { trust: false });
    expect(expired.authorizationError).toBe('CERT_HAS_EXPIRED');
    expect(new Date(expired.peer?.valid_to ?? '').getTime()).toBeLessThan(Date.now());

    const wrong = await get(lab, 'https', 'wrong.example.test', '/', { trust: false });
    expect(wrong.authorizationError).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(wrong.peer?.subjectaltname).toBe('DNS:not-wrong.example.test');

    const self = await get(lab, 'https', 'self.example.test', '/', { trust: false });
    expect(self.authorizationError).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(self.peer?.issuer.CN).toBe('self.example.test');
    expect(new X509Certificate(lab.certificate('self.example.test').cert).issuer).toBe(
      'CN=self.example.test',
    );
    expect(lab.certificate('www.example.test').names).toEqual(['www.example.test']);
    expect(() => lab.certificate('nobody.example.test')).toThrow('no lab site named nobody.example.test');

    await expect(get(lab, 'https', 'expired.example.test', '/')).rejects.toThrow(/expired/);
  });

  it('logs every connection and request, with the SNI name', async () => {
    const before = { connections: lab.connections.length, requests: lab.requests.length };
    await get(lab, 'https', 'www.example.test', '/echo?logged');
    await get(lab, 'http', 'www.example.test', '/echo');
    const connections = lab.connections.slice(before.connections);
    expect(connections).toMatchObject([
      { scheme: 'https', remoteAddress: '127.0.0.1', servername: 'www.example.test' },
      { scheme: 'http', remoteAddress: '127.0.0.1' },
    ]);
    const requests = lab.requests.slice(before.requests);
    expect(requests).toMatchObject([
      {
        scheme: 'https',
        host: 'www.example.test',
        servername: 'www.example.test',
        path: '/echo',
        url: '/echo?logged',
      },
      { scheme: 'http', host: 'www.example.test', method: 'GET', path: '/echo' },
    ]);
    expect(requests[0]?.headers).toContainEqual(['host', 'www.example.test']);
  });

  it('gives curl-style connect-to entries for every site, and takes new sites while running', async () => {
    await lab.addSite('late.example.test', { routes: { '/': { body: 'late' } } });
    const entries = lab.connectTo();
    expect(entries).toContain(`www.example.test:443:127.0.0.1:${lab.httpsPort}`);
    expect(entries).toContain(`www.example.test:80:127.0.0.1:${lab.httpPort}`);
    expect(entries).toContain(`late.example.test:443:127.0.0.1:${lab.httpsPort}`);
    const late = await get(lab, 'https', 'late.example.test', '/');
    expect(late.body.toString()).toBe('late');
    expect(new X509Certificate(lab.ca.cert).subject).toContain('rfckit');
  });

  it('listens on another loopback address when told, and hands the app its environment', async () => {
    const other = await startWebServer({ sites: { 'a.example.test': {} }, ca: lab.ca, address: '127.0.0.2' });
    try {
      expect(other.address).toBe('127.0.0.2');
      expect(other.connectTo()).toEqual([
        `a.example.test:80:127.0.0.2:${other.httpPort}`,
        `a.example.test:443:127.0.0.2:${other.httpsPort}`,
      ]);
      expect(labEnv({ dns: { address: '127.0.0.1:5353' }, web: [lab, other] })).toEqual({
        DNS_SERVERS: '127.0.0.1:5353',
        OUTBOUND_ALLOW: '127.0.0.0/8',
        OUTBOUND_CONNECT_TO: [...lab.connectTo(), ...other.connectTo()].join(','),
        OUTBOUND_CA_FILE: lab.caFile,
      });
      expect(labEnv({ web: other, allow: false })).toEqual({
        OUTBOUND_CONNECT_TO: other.connectTo().join(','),
        OUTBOUND_CA_FILE: other.caFile,
      });
    } finally {
      await other.close();
    }
    const stranger = await startWebServer({ sites: {} });
    try {
      expect(() => labEnv({ web: [lab, stranger] })).toThrow('one CA');
    } finally {
      await stranger.close();
    }
  });

  it('removes the CA file and frees its ports on close', async () => {
    const other = await startWebServer({ sites: { 'a.example.test': {} }, ca: lab.ca });
    const answer = await get(other, 'http', 'a.example.test', '/');
    expect(answer.body.toString()).toBe('ok');
    await other.close();
    expect(existsSync(other.caFile)).toBe(false);
    await expect(get(other, 'http', 'a.example.test', '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});
