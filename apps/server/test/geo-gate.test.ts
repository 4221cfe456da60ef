import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import maxmind, { type CountryResponse } from 'maxmind';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';
import { buildMmdb } from './helpers/mmdb.ts';

const denied = (country: string) => ({
  success: false,
  error: `Access is not permitted from your location (${country})`,
  code: 'REGION_DENIED',
});

let root: string;
let dist: string;
let geoipDb: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rfckit-geo-'));
  dist = path.join(root, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><head><title>rfckit</title></head>');
  writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'void 0;');
  geoipDb = path.join(root, 'country.mmdb');
  writeFileSync(
    geoipDb,
    buildMmdb({
      '203.0.113.0/24': { country: { iso_code: 'RU', names: { en: 'Russia' } } },
      '198.51.100.0/25': { country: { iso_code: 'DE' } },
      '192.0.2.0/24': { registered_country: { iso_code: 'IR' } },
    }),
  );
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(env: Record<string, string> = {}): Promise<FastifyInstance> {
  app = await buildTestApp({ DATA_DIR: path.join(root, 'data'), WEB_DIST: dist, ...env });
  return app;
}

function traceOf(body: string): Record<string, string> {
  return Object.fromEntries(
    body
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

describe('the test MaxMind DB writer', () => {
  it('writes a file the maxmind reader opens and answers from', async () => {
    const reader = await maxmind.open<CountryResponse>(geoipDb);
    expect(reader.metadata).toMatchObject({ ipVersion: 4, recordSize: 24, binaryFormatMajorVersion: 2 });
    expect(reader.get('203.0.113.200')?.country?.iso_code).toBe('RU');
    expect(reader.get('198.51.100.127')?.country?.iso_code).toBe('DE');
    expect(reader.get('198.51.100.128')).toBeNull();
    expect(reader.get('192.0.2.9')?.registered_country?.iso_code).toBe('IR');
    expect(reader.get('10.1.2.3')).toBeNull();
  });
});

describe('region gate', () => {
  it('answers 451 on API routes, docs and unknown paths from a denied country', async () => {
    const gate = await start({ TRUST_PROXY: 'true' });
    for (const url of [
      '/v1/health',
      '/api/v1/health',
      '/docs',
      '/docs/json',
      '/v1/nope',
      '/assets/missing.js',
    ]) {
      const response = await gate.inject({ url, headers: { 'cf-ipcountry': 'RU', accept: 'text/html' } });
      expect(response.statusCode, url).toBe(451);
      expect(response.json(), url).toEqual(denied('RU'));
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const response = await gate.inject({ method, url: '/tools/dnskey', headers: { 'cf-ipcountry': 'RU' } });
      expect(response.statusCode, method).toBe(451);
    }
    const post = await gate.inject({
      method: 'POST',
      url: '/v1/dnskey/validate',
      headers: { 'cf-ipcountry': 'kp' },
    });
    expect(post.statusCode).toBe(451);
    expect(post.json()).toEqual(denied('KP'));
  });

  it('answers a page with 451 and the web app, whose files load, so it can show Access Denied', async () => {
    const gate = await start({ TRUST_PROXY: 'true', DENIED_COUNTRIES: 'RU,KP' });
    for (const url of ['/', '/welcome', '/tools/dnskey', '/index.html']) {
      const response = await gate.inject({ url, headers: { 'cf-ipcountry': 'RU', accept: 'text/html' } });
      expect(response.statusCode, url).toBe(451);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.body, url).toContain('<title>rfckit</title>');
      expect(response.body, url).toContain('<meta name="rfckit-denied-countries" content="RU,KP" />');
    }
    const script = await gate.inject({ url: '/assets/index-abc.js', headers: { 'cf-ipcountry': 'RU' } });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe('void 0;');
    // an API client asking for JSON at a page path gets the envelope
    const json = await gate.inject({
      url: '/welcome',
      headers: { 'cf-ipcountry': 'RU', accept: 'application/json' },
    });
    expect(json.statusCode).toBe(451);
    expect(json.json()).toEqual(denied('RU'));
  });

  it('serves allowed and undetectable (XX) countries', async () => {
    const gate = await start({ TRUST_PROXY: 'true' });
    for (const country of ['DE', 'US', 'XX', 'T1', 'not-a-code', '']) {
      const response = await gate.inject({ url: '/v1/health', headers: { 'cf-ipcountry': country } });
      expect(response.statusCode, country).toBe(200);
    }
    expect((await gate.inject({ url: '/v1/health' })).statusCode).toBe(200);
  });

  it('ignores the country header from a peer TRUST_PROXY does not trust', async () => {
    const untrusting = await start();
    const response = await untrusting.inject({ url: '/v1/health', headers: { 'cf-ipcountry': 'RU' } });
    expect(response.statusCode).toBe(200);
    await untrusting.close();

    const listTrusting = await start({ TRUST_PROXY: '10.0.0.0/8' });
    const direct = await listTrusting.inject({
      url: '/v1/health',
      remoteAddress: '203.0.113.50',
      headers: { 'cf-ipcountry': 'RU' },
    });
    expect(direct.statusCode).toBe(200);
    const viaProxy = await listTrusting.inject({
      url: '/v1/health',
      remoteAddress: '10.1.2.3',
      headers: { 'cf-ipcountry': 'RU' },
    });
    expect(viaProxy.statusCode).toBe(451);
  });

  it('reads the header named by GEO_HEADER', async () => {
    const gate = await start({ TRUST_PROXY: 'true', GEO_HEADER: 'X-Country-Code' });
    expect((await gate.inject({ url: '/v1/health', headers: { 'cf-ipcountry': 'RU' } })).statusCode).toBe(
      200,
    );
    const response = await gate.inject({ url: '/v1/health', headers: { 'x-country-code': 'SY' } });
    expect(response.statusCode).toBe(451);
    expect(response.json()).toEqual(denied('SY'));
  });

  it('locates clients with GEOIP_DB, by the address TRUST_PROXY yields', async () => {
    const gate = await start({ GEOIP_DB: geoipDb, TRUST_PROXY: '127.0.0.1' });
    const cases: [address: string, status: number][] = [
      ['203.0.113.9', 451],
      ['::ffff:203.0.113.9', 451],
      ['192.0.2.77', 451], // registered country when the country is unknown
      ['198.51.100.1', 200],
      ['10.0.0.1', 200], // not in the database: XX
      ['2001:db8::1', 200], // IPv6 against an IPv4-only database: XX
    ];
    for (const [address, status] of cases) {
      const direct = await gate.inject({ url: '/v1/health', remoteAddress: address });
      expect(direct.statusCode, address).toBe(status);
    }
    // behind the trusted proxy the client is the forwarded address
    const forwarded = await gate.inject({ url: '/v1/health', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(forwarded.json()).toEqual(denied('RU'));
    // a trusted proxy's header wins over the database
    const proxied = await gate.inject({
      url: '/v1/health',
      headers: { 'x-forwarded-for': '203.0.113.9', 'cf-ipcountry': 'DE' },
    });
    expect(proxied.statusCode).toBe(200);
  });

  it('follows DENIED_COUNTRIES, where empty denies no one', async () => {
    const custom = await start({ TRUST_PROXY: 'true', DENIED_COUNTRIES: 'fr, DE' });
    expect((await custom.inject({ url: '/v1/health', headers: { 'cf-ipcountry': 'RU' } })).statusCode).toBe(
      200,
    );
    expect((await custom.inject({ url: '/v1/health', headers: { 'cf-ipcountry': 'FR' } })).statusCode).toBe(
      451,
    );
    await custom.close();

    const open = await start({ TRUST_PROXY: 'true', DENIED_COUNTRIES: '' });
    expect((await open.inject({ url: '/v1/health', headers: { 'cf-ipcountry': 'RU' } })).statusCode).toBe(
      200,
    );
  });
});

describe('GET /cdn-cgi/trace', () => {
  it('answers in Cloudflare trace format with loc, uncached', async () => {
    const gate = await start({ TRUST_PROXY: 'true' });
    const response = await gate.inject({
      url: '/cdn-cgi/trace',
      headers: {
        host: 'rfckit.example.org:8443',
        'user-agent': 'Mozilla/5.0 (test)',
        'cf-ipcountry': 'DE',
        'x-forwarded-for': '198.51.100.4',
        'x-forwarded-proto': 'https',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatch(/^(?:[a-z_]+=[^\n]*\n)+$/);
    const trace = traceOf(response.body);
    expect(trace).toMatchObject({
      h: 'rfckit.example.org',
      ip: '198.51.100.4',
      visit_scheme: 'https',
      uag: 'Mozilla/5.0 (test)',
      http: 'http/1.1',
      loc: 'DE',
    });
    expect(Number(trace.ts)).toBeCloseTo(Date.now() / 1000, -1);
    expect(Object.keys(trace)).toEqual(['h', 'ip', 'ts', 'visit_scheme', 'uag', 'http', 'loc']);
  });

  it('answers a denied client too, so the web app can show where it is', async () => {
    const gate = await start({ TRUST_PROXY: 'true' });
    const response = await gate.inject({ url: '/cdn-cgi/trace', headers: { 'cf-ipcountry': 'IR' } });
    expect(response.statusCode).toBe(200);
    expect(traceOf(response.body).loc).toBe('IR');
    expect(
      (await gate.inject({ method: 'HEAD', url: '/cdn-cgi/trace', headers: { 'cf-ipcountry': 'IR' } }))
        .statusCode,
    ).toBe(200);
    // only that route: its neighbours are refused
    expect((await gate.inject({ url: '/cdn-cgi/other', headers: { 'cf-ipcountry': 'IR' } })).statusCode).toBe(
      451,
    );
  });

  it('says XX when the country is unknown', async () => {
    const gate = await start();
    const trace = traceOf((await gate.inject({ url: '/cdn-cgi/trace' })).body);
    expect(trace.loc).toBe('XX');
    expect(trace.ip).toBe('127.0.0.1');
    expect(trace.visit_scheme).toBe('http');
  });
});

describe('a GEOIP_DB that is not a MaxMind DB', () => {
  it('stops the start with a clear message', async () => {
    const bogus = path.join(root, 'bogus.mmdb');
    // has the marker (so the config check passes) but no valid metadata after it
    writeFileSync(
      bogus,
      Buffer.concat([Buffer.alloc(64), Buffer.from('abcdef4d61784d696e642e636f6d', 'hex')]),
    );
    await expect(start({ GEOIP_DB: bogus })).rejects.toThrow(
      /^GEOIP_DB .*bogus\.mmdb is not a usable MaxMind DB file/,
    );
  });
});
