import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';

const expected = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
    "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rfckit-headers-'));
  mkdirSync(path.join(root, 'dist'));
  writeFileSync(path.join(root, 'dist', 'index.html'), '<!doctype html><title>rfckit</title>');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('security headers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ DATA_DIR: path.join(root, 'data'), WEB_DIST: path.join(root, 'dist') });
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['an HTML page', '/', 'GET'],
    ['the history fallback', '/tools/dnskey', 'GET'],
    ['an API response', '/v1/health', 'GET'],
    ['an API error', '/v1/dnskey/validate', 'POST'],
    ['a 404', '/v1/nope', 'GET'],
    ['the docs UI', '/docs', 'GET'],
    ['a malformed URL', '/v1/%E0%A4%A', 'GET'],
  ] as const)('are on %s', async (_name, url, method) => {
    const response = await app.inject({ method, url, headers: { accept: 'text/html' } });
    expect(response.headers).toMatchObject(expected);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('omit HSTS over plain http and ignore X-Forwarded-Proto from an untrusted peer', async () => {
    const response = await app.inject({ url: '/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('behind a trusted proxy', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ DATA_DIR: path.join(root, 'data-proxy'), TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('send HSTS when the proxy says the request came over https', async () => {
    const secure = await app.inject({ url: '/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    const plain = await app.inject({ url: '/v1/health', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('ignore the header when the peer is not the trusted proxy', async () => {
    const response = await app.inject({
      url: '/v1/health',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});
