// The DANE/TLSA routes: record checks, generation and the chain fetch from lab HTTPS and STARTTLS
// SMTP servers on loopback, reached through the app's guarded outbound layer. Expected digests come
// from OpenSSL run on the same lab certificates, never from the code under test.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTestCa,
  type IssuedCertificate,
  startNodeTlsServer,
  startPlainServer,
  startStarttlsSmtpServer,
  type TestCa,
} from '@rfckit/testlab';
import type { DaneCertificateResult, TlsaGeneration, TlsaValidationResultData } from '@rfckit/standards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labRoutes } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const HTTPS = 'www.dane.example.test';
const SMTP = 'mx.dane.example.test';
const CLOSED = 'closed.dane.example.test';
const PLAIN = 'plain.dane.example.test';

let ca: TestCa;
let caDir: string;
let web: IssuedCertificate;
let mail: IssuedCertificate;
const routes = labRoutes();

beforeAll(async () => {
  ca = await createTestCa();
  caDir = mkdtempSync(path.join(tmpdir(), 'rfckit-dane-'));
  writeFileSync(path.join(caDir, 'ca.pem'), ca.cert);
  web = await ca.issue({ names: [HTTPS] });
  mail = await ca.issue({ names: [SMTP], keyType: 'rsa-2048' });
  await routes.serve(HTTPS, startNodeTlsServer({ certificate: web }));
  await routes.serve(SMTP, startStarttlsSmtpServer({ certificate: mail }));
  await routes.serve(PLAIN, startPlainServer('http'));
  await routes.closed(CLOSED);
}, 60_000);

afterAll(async () => {
  await routes.close();
  rmSync(caDir, { recursive: true, force: true });
});

const tool = toolTestApp({
  zones: { 'ns.dane.example.test': { A: ['127.0.0.1'] } },
  lab: () => ({ connectTo: routes.connectTo }),
  env: () => ({ OUTBOUND_CA_FILE: path.join(caDir, 'ca.pem') }),
});

/** OpenSSL's digest (hex) of a PEM certificate's DER (`x509`) or SubjectPublicKeyInfo (`spki`). */
function openssl(pem: string, selector: 'x509' | 'spki', digest: 'sha256' | 'sha512'): string {
  const der =
    selector === 'x509'
      ? execFileSync('openssl', ['x509', '-outform', 'DER'], { input: pem })
      : execFileSync('openssl', ['pkey', '-pubin', '-outform', 'DER'], {
          input: execFileSync('openssl', ['x509', '-pubkey', '-noout'], { input: pem }),
        });
  const out = execFileSync('openssl', ['dgst', `-${digest}`, '-r'], { input: der }).toString();
  return out.split(' ')[0] ?? '';
}

const pemBlocks = (chain: string) =>
  chain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

describe('POST /v1/dane/certificate', { timeout: 30_000 }, () => {
  it('needs a signed-in caller', async () => {
    expect((await tool.post('/v1/dane/certificate', { host: HTTPS, port: 443 }, {})).statusCode).toBe(401);
  });

  it('fetches the chain of an HTTPS server', async () => {
    const result = await tool.data<DaneCertificateResult>('/v1/dane/certificate', { host: HTTPS, port: 443 });
    expect(result).toMatchObject({
      host: HTTPS,
      port: 443,
      starttls: null,
      trusted: true,
      nameMatches: true,
    });
    expect(result.certificates).toHaveLength(2);
    expect(pemBlocks(result.pem)).toEqual(pemBlocks(web.chain));
    expect(result.certificates[0]?.subject).toContain(HTTPS);
    expect(new Date(result.certificates[0]?.notAfter ?? '').getTime()).toBe(
      web.notAfter.getTime() - (web.notAfter.getTime() % 1000),
    );
  });

  it('fetches the chain of an SMTP server after STARTTLS, by default on port 25', async () => {
    const result = await tool.data<DaneCertificateResult>('/v1/dane/certificate', { host: SMTP });
    expect(result).toMatchObject({ port: 25, starttls: 'smtp' });
    expect(pemBlocks(result.pem)).toEqual(pemBlocks(mail.chain));
  });

  it.each([
    [CLOSED, 443, 'CONNECT_FAILED'],
    [PLAIN, 443, 'TLS_HANDSHAKE_FAILED'],
    [PLAIN, 25, 'PROTOCOL_ERROR'],
  ])('answers %s:%i as a 422 about the target (%s)', async (host, port, code) => {
    const response = await tool.post('/v1/dane/certificate', { host, port });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ success: false, code });
  });

  it.each([
    [{ host: '' }, 'Domain is required'],
    [{ host: HTTPS, port: 0 }, 'Port must be a whole number from 1 to 65535'],
    [{ host: HTTPS, starttls: 'telnet' }, 'STARTTLS must be'],
  ])('refuses %j', async (body, message) => {
    const response = await tool.post('/v1/dane/certificate', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain(message);
  });
});

describe('POST /v1/dane/generate from fetched lab certificates', { timeout: 30_000 }, () => {
  it.each([
    [HTTPS, 443],
    [SMTP, 25],
  ])('builds 3 1 1, 3 0 1, 3 1 2, 3 0 2 and 2 0 1 for %s as OpenSSL digests them', async (host, port) => {
    const fetched = await tool.data<DaneCertificateResult>('/v1/dane/certificate', { host, port });
    const result = await tool.data<TlsaGeneration>('/v1/dane/generate', { chain: fetched.pem, host, port });
    const [leaf = '', root = ''] = pemBlocks(fetched.pem);
    const data = (usage: number, selector: number, matchingType: number) =>
      result.records.find(
        (r) => r.usage === usage && r.selector === selector && r.matchingType === matchingType,
      )?.data;
    expect(data(3, 1, 1)).toBe(openssl(leaf, 'spki', 'sha256'));
    expect(data(3, 0, 1)).toBe(openssl(leaf, 'x509', 'sha256'));
    expect(data(3, 1, 2)).toBe(openssl(leaf, 'spki', 'sha512'));
    expect(data(3, 0, 2)).toBe(openssl(leaf, 'x509', 'sha512'));
    expect(data(2, 0, 1)).toBe(openssl(root, 'x509', 'sha256'));
    expect(result.records).toHaveLength(24);
    expect(result.selected.record).toBe(
      `_${port}._tcp.${host}. IN TLSA 3 1 1 ${openssl(leaf, 'spki', 'sha256')}`,
    );
    expect(result.zoneFile).toContain(`IN TLSA 2 1 1 ${openssl(root, 'spki', 'sha256')}`);
  });

  it('refuses a private key with the reason, as a 400', async () => {
    const response = await tool.post('/v1/dane/generate', { chain: web.key, host: HTTPS });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/must never be pasted/);
  });
});

describe('POST /v1/dane/validate', () => {
  it('says which certificate a 2 0 1 record matches', async () => {
    const [, root = ''] = pemBlocks(web.chain);
    const result = await tool.data<TlsaValidationResultData>('/v1/dane/validate', {
      record: `_443._tcp.${HTTPS}. IN TLSA 2 0 1 ${openssl(root, 'x509', 'sha256')}`,
      chain: web.chain,
    });
    expect(result.valid).toBe(true);
    expect(result.chain).toMatchObject({ matched: 1, matching: [1] });
  });

  it('fails a record that matches no certificate of the chain', async () => {
    const result = await tool.data<TlsaValidationResultData>('/v1/dane/validate', {
      record: `3 1 1 ${'ab'.repeat(32)}`,
      chain: mail.chain,
    });
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain('TLSA_CHAIN_NO_MATCH');
  });

  it('refuses an empty record', async () => {
    const response = await tool.post('/v1/dane/validate', { record: ' ' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain('TLSA record is required');
  });
});
