import { describe, expect, it } from 'vitest';
import { toolTestApp } from './helpers/tool-test-app.ts';

// Expected values: the IANA TLS registry and Mozilla's Server Side TLS guidelines 5.8
// (../shared/conformance/tls), never the code under test.
describe('POST /v1/tls-cipher/validate', () => {
  const tool = toolTestApp();
  const validate = (body: unknown, headers: Record<string, string> = tool.signedIn) =>
    tool.post('/v1/tls-cipher/validate', body, headers);

  it('needs a signed-in caller', async () => {
    const response = await validate({ cipherSuite: 'c02f' }, {});
    expect(response.statusCode).toBe(401);
  });

  it.each([
    'c02f',
    '0xC0,0x2F',
    '0xC02F',
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'TLS_ECDHE_RSA_AES_128_GCM_SHA256',
  ])('finds ECDHE-RSA-AES128-GCM-SHA256 by %s', async (cipherSuite) => {
    const response = await validate({ cipherSuite });
    expect(response.statusCode, response.body).toBe(200);
    const { success, data } = response.json();
    expect(success).toBe(true);
    expect(data).toMatchObject({
      cipher: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      known: true,
      level: 'HIGH',
      isSecure: true,
      isInsecure: false,
      supportsPFS: true,
      tlsVersion: 'TLS 1.2',
    });
    // IANA: 0xC0,0x2F, RFC 5289, Recommended Y; Mozilla intermediate and old
    expect(data.suite).toMatchObject({
      hex: '0xC0,0x2F',
      openssl: 'ECDHE-RSA-AES128-GCM-SHA256',
      gnutls: 'TLS_ECDHE_RSA_AES_128_GCM_SHA256',
      keyExchange: 'ECDHE',
      authentication: 'RSA',
      keyBits: 128,
      aead: true,
      ianaRecommended: true,
      reference: '[RFC5289]',
      mozilla: ['intermediate', 'old'],
    });
    expect(data.recommendations.length).toBeGreaterThan(0);
  });

  it('rates RC4 insecure with the RFC 7465 advice', async () => {
    const { data } = (await validate({ cipherSuite: 'RC4-SHA' })).json();
    expect(data).toMatchObject({
      cipher: 'TLS_RSA_WITH_RC4_128_SHA',
      level: 'INSECURE',
      isInsecure: true,
      supportsPFS: false,
    });
    expect(
      data.advice.find((item: { weakness: string }) => item.weakness === 'Rivest Cipher 4'),
    ).toMatchObject({
      reference: 'RFC 7465 §2',
    });
  });

  it('answers an unknown suite as UNKNOWN', async () => {
    const response = await validate({ cipherSuite: 'TLS_MADE_UP_SUITE' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      cipher: 'TLS_MADE_UP_SUITE',
      known: false,
      level: 'UNKNOWN',
      tlsVersion: 'UNKNOWN',
      suite: null,
    });
  });

  it('refuses a blank suite with the spec’s text, and unknown fields', async () => {
    const blank = await validate({ cipherSuite: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({
      success: false,
      error: expect.stringContaining('Please enter a cipher suite to validate'),
    });
    expect((await validate({ cipherSuite: 'c02f', extra: 1 })).statusCode).toBe(400);
    expect((await validate({ cipherSuite: 'x'.repeat(101) })).statusCode).toBe(400);
    const missing = await validate({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Please enter a cipher suite to validate');
  });

  it('answers a signalling value as such and an SSL 2.0 kind as INSECURE', async () => {
    const fallback = await validate({ cipherSuite: '{0x56,0x00}' });
    expect(fallback.statusCode, fallback.body).toBe(200);
    expect(fallback.json().data).toMatchObject({
      cipher: 'TLS_FALLBACK_SCSV',
      kind: 'signalling',
      level: 'N/A',
    });
    const ssl2 = await validate({ cipherSuite: 'SSL_CK_RC4_128_WITH_MD5' });
    expect(ssl2.json().data).toMatchObject({ kind: 'ssl2', level: 'INSECURE', tlsVersion: 'SSL 2.0' });
  });
});

describe('GET /v1/tls-cipher/recommendations', () => {
  const tool = toolTestApp();
  const get = (query: string, headers: Record<string, string> = tool.signedIn) =>
    tool.inject({ method: 'GET', url: `/v1/tls-cipher/recommendations${query}`, headers });

  it('needs a signed-in caller', async () => {
    expect((await get('', {})).statusCode).toBe(401);
  });

  it('defaults to nginx, intermediate', async () => {
    const response = await get('');
    expect(response.statusCode, response.body).toBe(200);
    const { success, data } = response.json();
    expect(success).toBe(true);
    expect(data).toMatchObject({ profile: 'intermediate', server: 'nginx', guidelinesVersion: '5.8' });
    expect(data.config).toContain('ssl_protocols TLSv1.2 TLSv1.3;');
    expect(data.ciphers).toEqual([
      'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-RSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-CHACHA20-POLY1305',
      'ECDHE-RSA-CHACHA20-POLY1305',
    ]);
  });

  it('writes Apache modern, on /api/v1 too', async () => {
    const response = await tool.inject({
      method: 'GET',
      url: '/api/v1/tls-cipher/recommendations?profile=modern&server=apache',
      headers: tool.signedIn,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({
      profile: 'modern',
      server: 'apache',
      protocols: ['TLSv1.3'],
      fileName: 'ssl.conf',
    });
    expect(data.config).toContain('SSLProtocol -all +TLSv1.3');
  });

  it('is described in the OpenAPI document as a GET with two query parameters', async () => {
    const document = (await tool.inject({ url: '/docs/json' })).json();
    const operation = document.paths['/v1/tls-cipher/recommendations'].get;
    expect(operation.requestBody).toBeUndefined();
    expect(
      operation.parameters.map((parameter: { name: string; in: string }) => [parameter.name, parameter.in]),
    ).toEqual([
      ['profile', 'query'],
      ['server', 'query'],
    ]);
  });

  it('refuses an unknown profile, server or parameter with a 400 in plain words', async () => {
    for (const [query, error] of [
      ['?profile=paranoid', 'Profile must be one of modern, intermediate or old'],
      ['?server=iis', 'Server must be one of nginx, apache, haproxy, caddy, postfix or node'],
      ['?colour=blue', 'Unknown field "colour"'],
    ]) {
      const response = await get(query ?? '');
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error });
    }
  });
});
