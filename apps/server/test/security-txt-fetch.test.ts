// POST /v1/security-txt/fetch against the lab: sites on loopback serve security.txt files with the
// faults RFC 9116 §3 cares about (location, scheme, certificate, media type, charset, Canonical,
// redirects), and an app without OUTBOUND_ALLOW shows that nothing inward is ever reached.
import { X509Certificate } from 'node:crypto';
import { startWebServer, type SiteSpec, type WebServer } from '@rfckit/testlab';
import { createCleartextMessage, generateKey, readPrivateKey, sign } from 'openpgp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from './helpers/databases.ts';
import { closedPort as findClosedPort, daysAhead } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const WELL_KNOWN = '/.well-known/security.txt';

/** A file with nothing wrong in it, whose Canonical is `canonical` (none when null). */
function securityTxt(canonical: string | null): string {
  return [
    ...(canonical === null ? [] : [`Canonical: ${canonical}`]),
    'Contact: https://example.test/report',
    `Expires: ${daysAhead(90)}`,
    '',
  ].join('\n');
}

const wellKnownFile = (host: string) => ({ body: securityTxt(`https://${host}${WELL_KNOWN}`) });

const goodFile = securityTxt(`https://good.example.test${WELL_KNOWN}`);
let signedFile = '';
let signerKey = '';

const sites: Record<string, SiteSpec> = {
  'good.example.test': { routes: { [WELL_KNOWN]: { body: goodFile } } },
  'legacy.example.test': {
    routes: { '/security.txt': { body: securityTxt('https://legacy.example.test/security.txt') } },
  },
  // https answers 404 everywhere; only http has the file
  'plain.example.test': {
    routes: {
      [WELL_KNOWN]: (request) =>
        request.scheme === 'https' ? { status: 404, body: 'not here\n' } : { body: securityTxt(null) },
    },
  },
  'expired.example.test': {
    certificate: 'expired',
    routes: { [WELL_KNOWN]: wellKnownFile('expired.example.test') },
  },
  'wrong.example.test': {
    certificate: 'wrong-name',
    routes: { [WELL_KNOWN]: wellKnownFile('wrong.example.test') },
  },
  'self.example.test': {
    certificate: 'self-signed',
    routes: { [WELL_KNOWN]: wellKnownFile('self.example.test') },
  },
  // the lab adds no Content-Type to a streamed body
  'notype.example.test': { routes: { [WELL_KNOWN]: { bigBody: { bytes: 40 } } } },
  'html.example.test': {
    routes: {
      [WELL_KNOWN]: {
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        ...wellKnownFile('html.example.test'),
      },
    },
  },
  'latin1.example.test': {
    routes: {
      [WELL_KNOWN]: {
        headers: { 'Content-Type': 'text/plain; charset=iso-8859-1' },
        ...wellKnownFile('latin1.example.test'),
      },
    },
  },
  'copied.example.test': {
    routes: {
      [WELL_KNOWN]: { body: securityTxt('https://elsewhere.example.test/.well-known/security.txt') },
    },
  },
  'moved.example.test': {
    routes: { [WELL_KNOWN]: { status: 301, redirect: `https://good.example.test${WELL_KNOWN}` } },
  },
  'home.example.test': {
    routes: {
      [WELL_KNOWN]: { redirect: '/' },
      '/': { headers: { 'Content-Type': 'text/html' }, body: '<!doctype html><title>Home</title>' },
    },
  },
  'missing.example.test': { routes: {} },
  // its https port is closed (see the connect-to rule below); http has the file
  'halfdown.example.test': { routes: { [WELL_KNOWN]: { body: securityTxt(null) } } },
  'big.example.test': { routes: { [WELL_KNOWN]: { bigBody: { bytes: 64 * 1024 + 1 } } } },
  'signed.example.test': { routes: { [WELL_KNOWN]: () => ({ body: signedFile }) } },
};

const zones = {
  ...Object.fromEntries(Object.keys(sites).map((host) => [host, { A: '127.0.0.1' }])),
  'down.example.test': { A: '127.0.0.1' },
  'internal.example.test': { A: '10.0.0.5' },
};

let web: WebServer;
/** A port with nothing listening: a site that is down. */
let closedPort: number;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKey({
    type: 'curve25519',
    userIDs: [{ name: 'Security team', email: 'security@signed.example.test' }],
    format: 'armored',
  });
  signerKey = publicKey;
  signedFile = await sign({
    message: await createCleartextMessage({
      text: securityTxt(`https://signed.example.test${WELL_KNOWN}`),
    }),
    signingKeys: await readPrivateKey({ armoredKey: privateKey }),
  });

  web = await startWebServer({ sites });
  closedPort = await findClosedPort();
});

afterAll(async () => {
  await web.close();
});

interface Finding {
  severity: string;
  code: string;
  message: string;
}

interface FetchData {
  valid: boolean;
  errors: string[];
  warnings: string[];
  diagnostics: Finding[];
  parsed?: { fields: { name: string; value: string }[]; signature: { verification: unknown } | null };
  domain: string;
  source: {
    url: string;
    finalUrl: string;
    status: number;
    contentType: string | null;
    content: string;
    redirects: { url: string; status: number; location: string }[];
    certificate: {
      host: string;
      verified: boolean;
      problem?: string;
      message?: string;
      issuer: string;
      validTo: string;
    } | null;
  } | null;
  attempts: { url: string; status: number | null; finalUrl: string | null; error: string | null }[];
}

const errorCodes = (data: FetchData) =>
  data.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

describeEachDatabase('security.txt fetch', (database) => {
  const tool = toolTestApp({
    database,
    zones,
    lab: () => ({
      web,
      connectTo: [
        `down.example.test:443:127.0.0.1:${closedPort}`,
        `down.example.test:80:127.0.0.1:${closedPort}`,
      ],
    }),
    // the first matching rule wins: this one takes halfdown's https to the closed port
    env: (lab) => ({
      OUTBOUND_CONNECT_TO: `halfdown.example.test:443:127.0.0.1:${closedPort},${lab.OUTBOUND_CONNECT_TO}`,
    }),
  });
  const post = (body: unknown, headers?: Record<string, string>, url = '/v1/security-txt/fetch') =>
    tool.post(url, body, headers);

  async function fetched(domain: string, extra: Record<string, string> = {}): Promise<FetchData> {
    const response = await post({ domain, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { success: true; data: FetchData };
    expect(body.success).toBe(true);
    return body.data;
  }

  it('needs a signed-in caller, and is documented with its body and result', async () => {
    expect((await post({ domain: 'good.example.test' }, {})).statusCode).toBe(401);
    const document = (await tool.inject('/docs/json')).json();
    const operation = document.paths['/v1/security-txt/fetch'].post;
    expect(operation.requestBody.content['application/json'].schema).toMatchObject({
      required: ['domain'],
      additionalProperties: false,
    });
    expect(
      Object.keys(operation.responses['200'].content['application/json'].schema.properties.data.properties),
    ).toEqual(['valid', 'errors', 'warnings', 'diagnostics', 'parsed', 'domain', 'source', 'attempts']);
  });

  it('refuses a blank or malformed domain before any lookup', async () => {
    for (const [domain, message] of [
      ['  ', 'Domain is required'],
      ['not a domain', 'Enter a domain such as example.com, or a URL such as https://example.com/'],
    ]) {
      const response = await post({ domain });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, error: message, code: 'VALIDATION_ERROR' });
    }
  });

  it('validates a good file at /.well-known/ over https, with the facts of the response', async () => {
    const data = await fetched('https://GOOD.example.test/some/page');
    expect(data.valid).toBe(true);
    expect(data.errors).toEqual([]);
    expect(data.domain).toBe('good.example.test');
    const leaf = web.certificate('good.example.test');
    // certificates carry whole seconds
    const seconds = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString();
    expect(data.source).toEqual({
      url: `https://good.example.test${WELL_KNOWN}`,
      finalUrl: `https://good.example.test${WELL_KNOWN}`,
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      content: goodFile,
      redirects: [],
      certificate: {
        host: 'good.example.test',
        verified: true,
        subject: new X509Certificate(leaf.cert).subject,
        issuer: new X509Certificate(web.ca.cert).subject,
        validFrom: seconds(leaf.notBefore),
        validTo: seconds(leaf.notAfter),
      },
    });
    expect(data.attempts).toEqual([
      {
        url: `https://good.example.test${WELL_KNOWN}`,
        status: 200,
        finalUrl: data.source!.finalUrl,
        error: null,
      },
    ]);
    expect(data.parsed?.fields.map((f) => f.name)).toEqual(['Canonical', 'Contact', 'Expires']);
  });

  it('reports a file found only at the legacy top-level path', async () => {
    const data = await fetched('legacy.example.test');
    expect(errorCodes(data)).toEqual(['location']);
    expect(data.source?.url).toBe('https://legacy.example.test/security.txt');
    expect(data.attempts.map((a) => [a.url, a.status])).toEqual([
      [`https://legacy.example.test${WELL_KNOWN}`, 404],
      ['https://legacy.example.test/security.txt', 200],
    ]);
  });

  it('reports a file served over plain http only', async () => {
    const data = await fetched('plain.example.test');
    expect(errorCodes(data)).toEqual(['invalid_uri_scheme']);
    expect(data.source).toMatchObject({ url: `http://plain.example.test${WELL_KNOWN}`, certificate: null });
    expect(data.attempts.map((a) => a.status)).toEqual([404, 404, 200]);
  });

  it.each([
    ['expired.example.test', 'expired', /expired/],
    ['wrong.example.test', 'wrong-name', /not valid for wrong\.example\.test/],
    ['self.example.test', 'self-signed', /self-signed/],
  ])('reads the file behind a bad certificate (%s) and reports invalid_cert', async (host, problem, text) => {
    const data = await fetched(host);
    expect(errorCodes(data)).toEqual(['invalid_cert']);
    expect(data.valid).toBe(false);
    expect(data.source?.certificate).toMatchObject({ host, verified: false, problem });
    expect(data.source?.certificate?.message).toMatch(text);
    expect(data.errors[0]).toMatch(/^The https certificate is not valid: /);
    expect(data.errors[0]).toMatch(text);
  });

  it('checks the Content-Type: missing, not text/plain, and a charset other than utf-8', async () => {
    const untyped = await fetched('notype.example.test');
    expect(untyped.source?.contentType).toBeNull();
    expect(errorCodes(untyped)).toContain('no_content_type');

    const html = await fetched('html.example.test');
    expect(html.source?.contentType).toBe('text/html; charset=utf-8');
    expect(errorCodes(html)).toEqual(['invalid_media']);

    const latin1 = await fetched('latin1.example.test');
    expect(errorCodes(latin1)).toEqual(['invalid_charset']);
  });

  it('reports a Canonical that does not list the URL fetched', async () => {
    const data = await fetched('copied.example.test');
    expect(errorCodes(data)).toEqual(['no_canonical_match']);
    expect(data.errors[0]).toContain(`https://copied.example.test${WELL_KNOWN}`);
  });

  it('follows a redirect to another host, reports it, and checks Canonical against the final URL', async () => {
    const data = await fetched('moved.example.test');
    expect(data.valid).toBe(true);
    expect(data.source).toMatchObject({
      url: `https://moved.example.test${WELL_KNOWN}`,
      finalUrl: `https://good.example.test${WELL_KNOWN}`,
      redirects: [
        {
          url: `https://moved.example.test${WELL_KNOWN}`,
          status: 301,
          location: `https://good.example.test${WELL_KNOWN}`,
        },
      ],
      certificate: { host: 'good.example.test', verified: true },
    });
    const redirect = data.diagnostics.find((d) => d.code === 'redirect_other_host');
    expect(redirect).toMatchObject({ severity: 'warning' });
    expect(redirect?.message).toContain('good.example.test');
  });

  it('answers no_security_txt (valid false, not an error) when no location has the file', async () => {
    const data = await fetched('missing.example.test');
    expect(data.valid).toBe(false);
    expect(errorCodes(data)).toEqual(['no_security_txt']);
    expect(data.source).toBeNull();
    expect(data.parsed).toBeUndefined();
    expect(data.attempts.map((a) => [a.url, a.status])).toEqual([
      [`https://missing.example.test${WELL_KNOWN}`, 404],
      ['https://missing.example.test/security.txt', 404],
      [`http://missing.example.test${WELL_KNOWN}`, 404],
      ['http://missing.example.test/security.txt', 404],
    ]);
  });

  it('does not take a redirect to a home page for the file', async () => {
    const data = await fetched('home.example.test');
    expect(errorCodes(data)).toEqual(['no_security_txt']);
    expect(data.attempts[0]).toEqual({
      url: `https://home.example.test${WELL_KNOWN}`,
      status: 200,
      finalUrl: 'https://home.example.test/',
      error: 'Redirected to https://home.example.test/, which is not a security.txt location',
    });
  });

  it('cuts off a body over 64 KiB with a clear error', async () => {
    const response = await post({ domain: 'big.example.test' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      success: false,
      code: 'BODY_TOO_LARGE',
      error: `The response from https://big.example.test${WELL_KNOWN} is larger than 64 KiB, so it is not a security.txt file (which is a few hundred bytes)`,
    });
  });

  it('answers a site that accepts no connection at all with a 502', async () => {
    const response = await post({ domain: 'down.example.test' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ success: false, code: 'CONNECT_FAILED' });
    expect(response.json().error).toBe(
      'Nothing answered on port 443 at down.example.test; Nothing answered on port 80 at down.example.test',
    );
  });

  it('tries http when https accepts no connection, asking the closed origin once', async () => {
    const data = await fetched('halfdown.example.test');
    expect(errorCodes(data)).toEqual(['invalid_uri_scheme']);
    expect(data.source?.url).toBe(`http://halfdown.example.test${WELL_KNOWN}`);
    const [first, second, third] = data.attempts;
    expect(first).toMatchObject({ url: `https://halfdown.example.test${WELL_KNOWN}`, status: null });
    expect(first?.error).toBe('Nothing answered on port 443 at halfdown.example.test');
    expect(second).toEqual({
      url: 'https://halfdown.example.test/security.txt',
      status: null,
      finalUrl: null,
      error: `Not tried: ${first?.error}`,
    });
    expect(third).toMatchObject({ url: `http://halfdown.example.test${WELL_KNOWN}`, status: 200 });
    expect(data.attempts).toHaveLength(3);
  });

  it('answers a domain that does not exist with a 422', async () => {
    const response = await post({ domain: 'nowhere.example.test' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ success: false, code: 'DNS_NOT_FOUND' });
    expect(response.json().error).toContain('nowhere.example.test');
  });

  it('verifies a signed file with the supplied key', async () => {
    const data = await fetched('signed.example.test', { publicKey: signerKey });
    expect(data.valid).toBe(true);
    expect(data.parsed?.signature?.verification).toMatchObject({ status: 'good' });
  });
});

describe('security.txt fetch with the default outbound rule (no OUTBOUND_ALLOW)', () => {
  const tool = toolTestApp({ zones, lab: () => ({ web, allow: false }) });
  beforeEach(() => {
    web.connections.length = 0;
    web.requests.length = 0;
  });

  it.each([
    ['internal.example.test', 'Refusing to connect to internal.example.test (10.0.0.5): private address'],
    ['good.example.test', 'Refusing to connect to good.example.test (127.0.0.1): loopback address'],
    ['127.0.0.1', 'Refusing to connect to 127.0.0.1: loopback address'],
  ])('refuses %s with a 422 and reaches nothing', async (domain, message) => {
    const response = await tool.post('/v1/security-txt/fetch', { domain });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ success: false, code: 'OUTBOUND_BLOCKED', error: message });
    expect(web.connections).toEqual([]);
  });
});
