import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head></html>';
// the page served: the build's index.html with the server's denied countries for the web app's region check
const SHELL =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script>' +
  '    <meta name="rfckit-denied-countries" content="AF,BY,BA,CF,KP,CD,GN,GW,HT,IR,IQ,LB,LY,ML,MM,NI,RU,SO,SS,SD,SY,VE,YE,ZW" />\n' +
  '  </head></html>';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rfckit-static-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('with a built web app', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const dist = path.join(root, 'dist');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log("rfckit");');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await buildTestApp({ DATA_DIR: path.join(root, 'data'), WEB_DIST: dist });
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves hashed assets as immutable', async () => {
    const response = await app.inject({ url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe('console.log("rfckit");');
  });

  it('serves index.html and other files with no-cache', async () => {
    for (const url of ['/', '/index.html', '/favicon.svg']) {
      const response = await app.inject({ url, headers: { accept: HTML } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await app.inject({ url: '/' })).body).toBe(SHELL);
  });

  it('answers client-side routes with index.html (history fallback)', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url: '/welcome?next=%2Ftools', headers: { accept: HTML } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      if (method === 'GET') expect(response.body).toBe(SHELL);
    }
    const nested = await app.inject({ url: '/tools/dnskey', headers: { accept: HTML } });
    expect(nested.body).toBe(SHELL);
    // curl sends */*; some clients send no Accept at all
    expect((await app.inject({ url: '/welcome', headers: { accept: '*/*' } })).body).toBe(SHELL);
    expect((await app.inject({ url: '/privacy-policy' })).body).toBe(SHELL);
  });

  it('keeps API paths, missing files and non-HTML requests as 404 envelopes', async () => {
    const cases = [
      { url: '/v1/nope', accept: HTML },
      { url: '/api/v1/nope', accept: HTML },
      { url: '/docs/nope', accept: HTML },
      { url: '/missing.js', accept: '*/*' },
      { url: '/missing.js', accept: HTML },
      { url: '/assets/gone-123.css', accept: 'text/css,*/*;q=0.1' },
      { url: '/welcome', accept: 'application/json' },
    ];
    for (const { url, accept } of cases) {
      const response = await app.inject({ url, headers: { accept } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({
        success: false,
        error: `Route GET ${url} not found`,
        code: 'NOT_FOUND',
      });
    }
  });

  it('does not serve the page for other methods', async () => {
    const response = await app.inject({ method: 'POST', url: '/welcome', headers: { accept: HTML } });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
  });

  it('still serves the API', async () => {
    expect((await app.inject({ url: '/v1/health' })).statusCode).toBe(200);
  });
});

describe('without a built web app', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({
      DATA_DIR: path.join(root, 'data-unbuilt'),
      WEB_DIST: path.join(root, 'absent'),
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers pages with a clear 503 and keeps the API working', async () => {
    const page = await app.inject({ url: '/', headers: { accept: HTML } });
    expect(page.statusCode).toBe(503);
    expect(page.json()).toEqual({
      success: false,
      error: 'Web app is not built: run npm run build',
      code: 'WEB_NOT_BUILT',
    });
    expect((await app.inject({ url: '/welcome', headers: { accept: HTML } })).statusCode).toBe(503);
    expect((await app.inject({ url: '/v1/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/app.js' })).statusCode).toBe(404);
  });
});
