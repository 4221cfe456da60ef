// The SMTP TLS server identity routes (RFC 7817): info, generate, and validate from certificateInfo,
// from PEM certificates the lab CA issues with chosen names, and live from lab servers over STARTTLS
// SMTP and implicit TLS, reached through the app's guarded outbound layer. Expected flags are written
// from RFC 7817 §3 and RFC 6125 §6, never taken from the code under test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTestCa,
  type IssueOptions,
  startNodeTlsServer,
  startPlainServer,
  startStarttlsSmtpServer,
  type TestCa,
} from '@rfckit/testlab';
import type { SmtpTlsGeneration, SmtpTlsInfo, SmtpTlsValidation } from '@rfckit/standards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labRoutes } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const DOMAIN = 'smtptls.example.test';
const SUBMIT = `submit.${DOMAIN}`;
const IMAPS = `imap.${DOMAIN}`;
const LEGACY = `legacy.${DOMAIN}`;
const CLOSED = `closed.${DOMAIN}`;
const PLAIN = `plain.${DOMAIN}`;
const PRIVATE = `private.${DOMAIN}`;

let ca: TestCa;
let caDir: string;
const routes = labRoutes();

beforeAll(async () => {
  ca = await createTestCa();
  caDir = mkdtempSync(path.join(tmpdir(), 'rfckit-smtp-tls-'));
  writeFileSync(path.join(caDir, 'ca.pem'), ca.cert);
  const submit = await ca.issue({ names: [SUBMIT], srvNames: [`_submission.${DOMAIN}`] });
  const imaps = await ca.issue({ names: [`*.${DOMAIN}`] });
  const legacy = await ca.issue({ names: [], commonName: LEGACY });
  await routes.serve(SUBMIT, startStarttlsSmtpServer({ certificate: submit }));
  await routes.serve(IMAPS, startNodeTlsServer({ certificate: imaps }));
  await routes.serve(LEGACY, startNodeTlsServer({ certificate: legacy }));
  await routes.serve(PLAIN, startPlainServer('http'));
  await routes.closed(CLOSED);
}, 60_000);

afterAll(async () => {
  await routes.close();
  rmSync(caDir, { recursive: true, force: true });
});

const tool = toolTestApp({
  zones: { [PRIVATE]: { A: ['10.0.0.1'] } },
  lab: () => ({ connectTo: routes.connectTo }),
  env: () => ({ OUTBOUND_CA_FILE: path.join(caDir, 'ca.pem') }),
});

const flags = (dns: boolean, srv: boolean, cn: boolean, compliant: boolean) => ({
  dnsIdCompliant: dns,
  srvIdCompliant: srv,
  cnIdCompliant: cn,
  rfc7817Compliant: compliant,
});

describe('GET /v1/smtp-tls-enforce/info', () => {
  const get = (url: string, headers: Record<string, string> = tool.signedIn) =>
    tool.inject({ method: 'GET', url, headers });

  it('needs a signed-in caller', async () => {
    expect((await get('/v1/smtp-tls-enforce/info', {})).statusCode).toBe(401);
  });

  it.each(['/v1/smtp-tls-enforce/info', '/v1/smtp-tls/info', '/api/v1/smtp-tls-enforce/info'])(
    'answers the checks, the services with their ports (spec part 2 §9) and the limits at %s',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data as SmtpTlsInfo;
      expect(data.services.map((service) => [service.serviceType, service.port, service.srvService])).toEqual(
        [
          ['smtp', 587, '_submission._tcp'],
          ['imap', 143, '_imap._tcp'],
          ['imaps', 993, '_imaps._tcp'],
          ['pop3', 110, '_pop3._tcp'],
          ['pop3s', 995, '_pop3s._tcp'],
          ['sieve', 4190, '_sieve._tcp'],
        ],
      );
      expect(data.checks.map((check) => check.name)).toEqual(
        expect.arrayContaining(['DNS-ID', 'SRV-ID', 'CN-ID']),
      );
      expect(data.limits.find((limit) => limit.name.startsWith('Live fetch, per step'))?.value).toBe('10 s');
    },
  );
});

describe('POST /v1/smtp-tls-enforce/generate', () => {
  it('answers status and message with the names and records', async () => {
    const data = await tool.data<SmtpTlsGeneration>('/v1/smtp-tls-enforce/generate', {
      serverHostname: 'mail.example.com',
      emailDomain: 'example.com',
      serviceType: 'smtp',
      port: 465,
      enableSNI: true,
      enableWildcard: false,
      includeSRV: true,
    });
    expect(data.status).toBe('success');
    expect(data.message).toContain('mail.example.com:465');
    expect(data.certificate.srvIds).toEqual(['_submissions.example.com']);
    expect(data.dnsRecords[0]?.zoneLine).toBe(
      '_submissions._tcp.example.com. 3600 IN SRV 0 1 465 mail.example.com.',
    );
  });

  it.each([
    [{ emailDomain: 'example.com' }, 'Server hostname is required'],
    [{ serverHostname: 'mail.example.com', emailDomain: '' }, 'Email domain is required'],
    [
      { serverHostname: 'mail.example.com', emailDomain: 'example.com', serviceType: 'smtps' },
      'Service type must be one of',
    ],
    [{ serverHostname: 'mail.example.com', emailDomain: 'example.com', port: 70000 }, 'Port must be'],
    [{ serverHostname: 'mail.example.com', emailDomain: 'example.com', extra: 1 }, 'extra'],
  ])('refuses %j as a 400', async (body, message) => {
    const response = await tool.post('/v1/smtp-tls-enforce/generate', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toContain(message);
  });
});

describe('POST /v1/smtp-tls-enforce/validate', { timeout: 30_000 }, () => {
  const settings = { serverHostname: 'mail.example.com', emailDomain: 'example.com', serviceType: 'imaps' };

  it('checks the spec’s certificateInfo', async () => {
    const data = await tool.data<SmtpTlsValidation>('/v1/smtp-tls-enforce/validate', {
      ...settings,
      includeSRV: true,
      certificateInfo: {
        dnsIds: ['*.example.com'],
        srvIds: ['_imaps.example.com'],
        commonName: 'mail.example.com',
      },
    });
    expect(data.status).toBe('success');
    expect(data.validationSummary).toEqual(flags(true, true, true, true));
    expect(data.issues).toEqual([]);
    expect(data.warnings).toEqual([]);
  });

  // the Done-when table: lab CA certificates with chosen names, read from PEM
  const certificates: [string, IssueOptions, Record<string, unknown>, ReturnType<typeof flags>, string][] = [
    ['DNS-ID exact', { names: ['mail.example.com'] }, {}, flags(true, true, true, true), 'success'],
    ['DNS-ID wildcard', { names: ['*.example.com'] }, {}, flags(true, true, true, true), 'success'],
    [
      'wildcard, bare parent',
      { names: ['*.example.com'] },
      { serverHostname: 'example.com' },
      // the CN beside the DNS-ID is not looked at (RFC 6125 §6.4.4)
      flags(false, true, true, false),
      'error',
    ],
    [
      'SRV-ID with SRV discovery',
      { names: [], commonName: 'imap.provider.example', srvNames: ['_imaps.example.com'] },
      { includeSRV: true },
      // the CN of another name beside the SRV-ID is not looked at (RFC 6125 §6.4.4)
      flags(false, true, true, true),
      'success',
    ],
    ['CN only', { names: [], commonName: 'mail.example.com' }, {}, flags(false, true, true, true), 'warning'],
    [
      'IDN as A-label, host typed in Unicode',
      { names: ['mail.xn--bcher-kva.example'] },
      { serverHostname: 'mail.bücher.example', emailDomain: 'bücher.example' },
      flags(true, true, true, true),
      'success',
    ],
  ];

  it.each(certificates)('%s', async (_name, issue, overrides, expected, status) => {
    const certificate = await ca.issue(issue);
    const data = await tool.data<SmtpTlsValidation>('/v1/smtp-tls-enforce/validate', {
      ...settings,
      ...overrides,
      pem: certificate.chain,
    });
    expect(data.validationSummary).toEqual(expected);
    expect(data.status).toBe(status);
    expect(data.source).toBe('pem');
    expect(data.certificate?.srvIds).toEqual(issue.srvNames ?? []);
  });

  it('fetches a submission certificate after SMTP STARTTLS on 587, SRV-ID included', async () => {
    const data = await tool.data<SmtpTlsValidation>('/v1/smtp-tls-enforce/validate', {
      serverHostname: SUBMIT,
      emailDomain: DOMAIN,
      serviceType: 'smtp',
      includeSRV: true,
      live: {},
    });
    expect(data.live).toEqual({ host: SUBMIT, port: 587, starttls: 'smtp' });
    expect(data.certificate?.dnsIds).toEqual([SUBMIT]);
    expect(data.certificate?.srvIds).toEqual([`_submission.${DOMAIN}`]);
    expect(data.validationSummary).toEqual(flags(true, true, true, true));
    expect(data.status).toBe('success');
  });

  it('fetches over implicit TLS on 993 and matches the wildcard', async () => {
    const data = await tool.data<SmtpTlsValidation>('/v1/smtp-tls-enforce/validate', {
      serverHostname: IMAPS,
      emailDomain: DOMAIN,
      serviceType: 'imaps',
      live: {},
    });
    expect(data.live).toEqual({ host: IMAPS, port: 993, starttls: null });
    expect(data.presented.dnsIds).toEqual([
      expect.objectContaining({ presented: `*.${DOMAIN}`, matches: true }),
    ]);
    expect(data.validationSummary.rfc7817Compliant).toBe(true);
  });

  it('a live server whose certificate names another host fails, with the fix', async () => {
    const data = await tool.data<SmtpTlsValidation>('/v1/smtp-tls-enforce/validate', {
      serverHostname: 'mail.example.com',
      emailDomain: 'example.com',
      serviceType: 'imaps',
      live: { host: LEGACY, port: 993 },
    });
    expect(data.status).toBe('error');
    expect(data.validationSummary).toEqual(flags(false, true, false, false));
    expect(data.issues[0]).toMatchObject({
      code: 'SMTP_TLS_NO_MATCHING_IDENTIFIER',
      fix: expect.stringContaining('mail.example.com'),
    });
  });

  it.each([
    [CLOSED, 'imaps', 993, 'CONNECT_FAILED'],
    [PLAIN, 'imaps', 993, 'TLS_HANDSHAKE_FAILED'],
    [PLAIN, 'smtp', 587, 'PROTOCOL_ERROR'],
    [PRIVATE, 'imaps', 993, 'OUTBOUND_BLOCKED'],
  ])('answers live %s (%s on %i) as a 422 about the target (%s)', async (host, serviceType, port, code) => {
    const response = await tool.post('/v1/smtp-tls-enforce/validate', {
      ...settings,
      serviceType,
      live: { host, port },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ success: false, code });
  });

  it.each([
    [{ ...settings }, 'Give the certificate one way'],
    [{ ...settings, pem: 'x', live: {} }, 'Give the certificate one way'],
    [{ ...settings, serverHostname: '', certificateInfo: {} }, 'Server hostname is required'],
    [{ ...settings, serverHostname: 'https://mail.example.com', certificateInfo: {} }, 'not a URL'],
    [{ ...settings, certificateInfo: { dnsIds: 'mail.example.com' } }, 'dnsIds'],
    [{ ...settings, certificateInfo: { dnsIds: [], other: [] } }, 'other'],
    [{ ...settings, pem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }, 'private key'],
    [{ ...settings, pem: 'not a certificate' }, 'No certificate found'],
  ])('refuses %j as a 400', async (body, message) => {
    const response = await tool.post('/v1/smtp-tls-enforce/validate', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toContain(message);
  });
});
