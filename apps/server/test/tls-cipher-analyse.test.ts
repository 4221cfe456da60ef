// POST /v1/tls-cipher/analyse against lab TLS servers on loopback, reached through the app's
// guarded outbound layer (OUTBOUND_CONNECT_TO sends each lab name to its server; the lab CA is
// trusted through OUTBOUND_CA_FILE). Expected grades and caps follow from each server's
// configuration by SSL Labs' rating guide.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTestCa,
  startNodeTlsServer,
  startPlainServer,
  startScriptedTlsServer,
  startWebServer,
  type TestCa,
  type WebServer,
} from '@rfckit/testlab';
import type { TlsAnalysis } from '@rfckit/standards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labRoutes } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const MODERN = 'modern.tls.example.test';
const EXPIRED = 'expired.tls.example.test';
const SELF_SIGNED = 'self-signed.tls.example.test';
const SSLV3 = 'sslv3.tls.example.test';
const CLOSED = 'closed.tls.example.test';
const HSTS = 'hsts.tls.example.test';
const PLAIN_HTTP = 'http.tls.example.test';
const SSH = 'ssh.tls.example.test';
const SILENT = 'silent.tls.example.test';
const STALL = 'stall.tls.example.test';

let ca: TestCa;
let caDir: string;
let web: WebServer;
const routes = labRoutes();

beforeAll(async () => {
  ca = await createTestCa();
  caDir = mkdtempSync(path.join(tmpdir(), 'rfckit-tls-analyse-'));
  writeFileSync(path.join(caDir, 'ca.pem'), ca.cert);
  await routes.serve(
    MODERN,
    startNodeTlsServer({ certificate: await ca.issue({ names: [MODERN] }), minVersion: 'TLSv1.2' }),
  );
  const expiry = new Date(Date.now() - 86_400_000);
  await routes.serve(
    EXPIRED,
    startNodeTlsServer({
      certificate: await ca.issue({
        names: [EXPIRED],
        notAfter: expiry,
        notBefore: new Date(expiry.getTime() - 30 * 86_400_000),
      }),
      minVersion: 'TLSv1.2',
    }),
  );
  await routes.serve(
    SELF_SIGNED,
    startNodeTlsServer({
      certificate: await ca.issue({ names: [SELF_SIGNED], selfSigned: true }),
      minVersion: 'TLSv1.2',
    }),
  );
  // SSL 3.0 only, AES-128-CBC and 3DES: what no library serves any more
  await routes.serve(
    SSLV3,
    startScriptedTlsServer({
      versions: ['SSLv3'],
      suites: [0x002f, 0x000a],
      certificate: await ca.issue({ names: [SSLV3] }),
    }),
  );
  await routes.closed(CLOSED);
  await routes.serve(PLAIN_HTTP, startPlainServer('http'));
  await routes.serve(SSH, startPlainServer('ssh'));
  await routes.serve(SILENT, startPlainServer('silent'));
  await routes.serve(
    STALL,
    startScriptedTlsServer({
      versions: ['TLSv1.2'],
      suites: [0xc02f],
      certificate: await ca.issue({ names: [STALL] }),
      stallAfterServerHello: true,
    }),
  );
  // a web site on the lab's HTTPS server (Node's TLS defaults) sending HSTS for two years
  web = await startWebServer({
    ca,
    sites: {
      [HSTS]: {
        routes: { '*': { headers: [['Strict-Transport-Security', 'max-age=63072000; includeSubDomains']] } },
      },
    },
  });
  routes.connectTo.push(...web.connectTo());
}, 60_000);

afterAll(async () => {
  await Promise.all([routes.close(), web.close()]);
  rmSync(caDir, { recursive: true, force: true });
});

// functions: the servers and the CA file exist once the beforeAll above has run
const tool = toolTestApp({
  // the lab resolver knows no other name: anything not connected to a lab server does not exist
  zones: { 'dns.tls.example.test': { A: ['127.0.0.1'] } },
  lab: () => ({ connectTo: routes.connectTo }),
  env: () => ({ OUTBOUND_CA_FILE: path.join(caDir, 'ca.pem') }),
});

async function analyse(host: string, extra: Record<string, unknown> = {}): Promise<TlsAnalysis> {
  return tool.data<TlsAnalysis>('/v1/tls-cipher/analyse', { host, ...extra });
}

const capCodes = (analysis: TlsAnalysis) => analysis.grading?.caps.map((cap) => cap.code) ?? [];

describe('POST /v1/tls-cipher/analyse', { timeout: 60_000 }, () => {
  it('needs a signed-in caller', async () => {
    const response = await tool.post('/v1/tls-cipher/analyse', { host: MODERN }, {});
    expect(response.statusCode).toBe(401);
  });

  it.each([
    [{ host: '' }, 'Hostname is required'],
    [{ host: 'https://example.com/' }, 'not a URL'],
    [{ host: MODERN, port: 0 }, 'Port must be a whole number from 1 to 65535'],
    [{ host: MODERN, port: 70_000 }, 'Port must be a whole number from 1 to 65535'],
    [{ host: MODERN, port: 44.5 }, 'Port must be a whole number from 1 to 65535'],
    [{ host: MODERN, starttls: 'telnet' }, 'STARTTLS must be one of SMTP, IMAP, POP3'],
    [{ port: 443 }, 'Hostname is required'],
    [{ host: 'example.com:443' }, 'Put the port in the Port field'],
  ])('refuses %j', async (body, message) => {
    const response = await tool.post('/v1/tls-cipher/analyse', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toContain(message);
  });

  it('grades a TLS 1.2 + 1.3 server A, with the spec fields and the whole report', async () => {
    const analysis = await analyse(MODERN);
    expect(analysis.supportedVersions.map((version) => version.version)).toEqual(['TLSv1.2', 'TLSv1.3']);
    expect(analysis.supportedVersions[1]?.ciphers).toEqual(
      expect.arrayContaining(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384']),
    );
    expect(analysis.vulnerabilities).toEqual([]);
    expect(analysis.grade).toBe('A');
    expect(analysis.score).toBeGreaterThanOrEqual(80);
    expect(analysis.grading?.caps).toEqual([]);
    // the lab server closes after the handshake: no HTTPS answer, so HSTS is unread and no A+
    expect(analysis.hsts.checked).toBe(false);
    expect(analysis.grading?.missingForAPlus).toContain(
      'HSTS (Strict-Transport-Security) could not be read, so it cannot count',
    );
    expect(analysis.report).toMatchObject({ host: MODERN, port: 443, incomplete: false });
    expect(analysis.report.certificate).toMatchObject({ trusted: true, nameMatches: true });
  });

  it('grades A+ a site that also sends HSTS of two years', async () => {
    const analysis = await analyse(HSTS);
    expect(analysis.hsts).toEqual({ checked: true, maxAge: 63_072_000 });
    expect(analysis.grade).toBe('A+');
    expect(analysis.grading?.missingForAPlus).toEqual([]);
  });

  it('answers at the spec’s spelling /analyze too', async () => {
    const analysis = await tool.data<TlsAnalysis>('/v1/tls-cipher/analyze', { host: MODERN, port: 443 });
    expect(analysis.grade).toBe('A');
  });

  it('names the T cap of an expired certificate and of a self-signed one', async () => {
    const expired = await analyse(EXPIRED);
    expect(expired.grade).toBe('T');
    expect(capCodes(expired)).toContain('CERT_EXPIRED');
    expect(expired.grading?.gradeIgnoringTrust).toBe('A');
    expect(expired.vulnerabilities.join('\n')).toMatch(/expired/);

    const selfSigned = await analyse(SELF_SIGNED);
    expect(selfSigned.grade).toBe('T');
    expect(capCodes(selfSigned)).toContain('CERT_SELF_SIGNED');
    const cap = selfSigned.grading?.caps.find((entry) => entry.code === 'CERT_SELF_SIGNED');
    expect(cap?.fix).toMatch(/public CA/);
    expect(selfSigned.recommendations).toContain(cap?.fix);
  });

  it('names the F cap of a server whose best protocol is SSL 3.0', async () => {
    const analysis = await analyse(SSLV3);
    expect(analysis.supportedVersions).toEqual([
      { version: 'SSLv3', ciphers: ['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA'] },
    ]);
    expect(analysis.grade).toBe('F');
    expect(capCodes(analysis)[0]).toBe('SSLV3_BEST');
    expect(analysis.vulnerabilities.some((line) => /POODLE/.test(line))).toBe(true);
  });

  // issue 16: each bad target a clear 4xx or a finding, never a 5xx or a hung request
  it.each([
    [
      'a closed port',
      CLOSED,
      'CONNECT_FAILED',
      /^Nothing answered on port 443 at closed\.tls\.example\.test/,
    ],
    ['a plain HTTP server', PLAIN_HTTP, 'PROTOCOL_ERROR', /^http\.tls\.example\.test:443 does not speak TLS/],
    [
      'an SSH server',
      SSH,
      'PROTOCOL_ERROR',
      /^ssh\.tls\.example\.test:443 does not speak TLS: it answered "SSH-2\.0/,
    ],
    [
      'a server that never answers',
      SILENT,
      'FIRST_BYTE_TIMEOUT',
      /^silent\.tls\.example\.test:443 sent no answer/,
    ],
    ['a name that does not exist', 'nowhere.example.test', 'DNS_NOT_FOUND', /nowhere\.example\.test/],
  ])('%s is a 422 that says so in plain words', async (_, host, code, message) => {
    const response = await tool.post('/v1/tls-cipher/analyse', { host });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ success: false, code });
    expect(response.json().error).toMatch(message);
    expect(response.json().error).not.toMatch(/127\.0\.0\.1|ECONN|routines/);
  });

  it('a server that stalls after ServerHello: its suites, no grade (no certificate), groups not learnt', async () => {
    const analysis = await analyse(STALL);
    expect(analysis.supportedVersions.map((version) => version.version)).toContain('TLSv1.2');
    expect(analysis.supportedVersions.flatMap((version) => version.ciphers)).toContain(
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    );
    expect(JSON.stringify(analysis.report.notes)).toMatch(/certificate/i);
    // no certificate, no grade: not a letter (T means an untrusted certificate) nor a score
    expect(analysis.grading).toBeNull();
    expect(analysis.grade).toBeNull();
    expect(analysis.score).toBeNull();
    expect(analysis.ungradedReason).toBe(
      'The server sent no certificate we could read, so its key cannot be graded',
    );
    // it does ECDHE, but the group probes never got a ServerKeyExchange: not learnt, not "none"
    expect(analysis.report.groups.tls12).toEqual([]);
    expect(analysis.report.groups.unanswered).toEqual(['tls12']);
    expect(analysis.report.signatureAlgorithms).toBeUndefined();
    expect(analysis.report.incomplete).toBe(true);
  });

  it('a target the outbound rules refuse is a 422 OUTBOUND_BLOCKED', async () => {
    const response = await tool.post('/v1/tls-cipher/analyse', { host: '10.0.0.1' });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toBe('OUTBOUND_BLOCKED');
  });

  it('streams progress events, then the result, to a caller that accepts text/event-stream', async () => {
    const response = await tool.inject({
      method: 'POST',
      url: '/v1/tls-cipher/analyse',
      headers: { ...tool.signedIn, 'content-type': 'application/json', accept: 'text/event-stream' },
      payload: JSON.stringify({ host: MODERN }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = response.body
      .split('\n\n')
      .filter(Boolean)
      .map((block) => {
        const [, name = ''] = /^event: (.*)$/m.exec(block) ?? [];
        const [, data = ''] = /^data: (.*)$/m.exec(block) ?? [];
        return { name, data: JSON.parse(data) as Record<string, unknown> };
      });
    const names = events.map((event) => event.name);
    expect(names.at(-1)).toBe('result');
    expect(names.slice(0, -1).every((name) => name === 'progress')).toBe(true);
    expect(names.length).toBeGreaterThan(3);
    const phases = events.slice(0, -1).map((event) => event.data.phase);
    expect(phases).toContain('suites');
    expect(phases.at(-1)).toBe('done');
    expect(events.at(-1)?.data).toMatchObject({ success: true, data: { grade: 'A' } });
  });

  it('answers a refusal as JSON even when a stream was asked for', async () => {
    const response = await tool.inject({
      method: 'POST',
      url: '/v1/tls-cipher/analyse',
      headers: { ...tool.signedIn, 'content-type': 'application/json', accept: 'text/event-stream' },
      payload: JSON.stringify({ host: CLOSED }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ success: false, code: 'CONNECT_FAILED' });
  });
});
