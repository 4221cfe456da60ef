// The scan's notes and findings are read by admins: on lab servers whose handshakes fail in
// different ways, none may quote OpenSSL's error text, an errno or an address the user did not
// type (the lab's connect-to address above all).
import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type IssuedCertificate,
  type LabTlsServer,
  hasProgram,
  startNodeTlsServer,
  startOpensslServer,
  startScriptedTlsServer,
} from '@rfckit/testlab';
import type { TlsScanReport } from '@rfckit/standards';
import { scanTls, type TlsScanOptions } from '../src/tls/scan.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';

let lab: TlsLab;
let rsa: IssuedCertificate;
beforeAll(async () => {
  lab = await createTlsLab();
  rsa = await lab.issue({ keyType: 'rsa-2048' });
});

afterAll(async () => {
  await lab.close();
});

function scan(server: LabTlsServer, options: TlsScanOptions = {}): Promise<TlsScanReport> {
  return scanTls(
    lab.session(server.port),
    { host: LAB_TLS_HOST, port: 443 },
    { timeoutMs: 2_000, ...options },
  );
}

/** Every text of the report a person reads about what went wrong. */
function shownTexts(report: TlsScanReport): string[] {
  return [
    ...report.notes,
    ...report.vulnerabilities.map((vulnerability) => vulnerability.evidence),
    ...report.versions.flatMap((version) => (version.refusal === undefined ? [] : [version.refusal])),
    ...(report.certificate?.problem === undefined ? [] : [report.certificate.problem.message]),
  ];
}

/** IP literals in a text, bare, bracketed or with a port. */
function addressesIn(text: string): string[] {
  return text
    .split(/[\s,;()"'[\]]+/)
    .map((token) => token.replace(/[.:]+$/, ''))
    .filter((token) => isIP(token) !== 0 || isIP(token.replace(/:\d+$/, '')) !== 0);
}

function expectPlainWords(report: TlsScanReport): void {
  for (const text of shownTexts(report)) {
    expect(text).not.toMatch(/error:|ECONN|routines/);
    expect(addressesIn(text), text).toEqual([]);
  }
}

describe('scan notes and evidence are plain words', () => {
  it('a server that speaks SSL 3.0 and TLS 1.0 only: the certificate handshake fails', async () => {
    const server = await lab.started(
      startScriptedTlsServer({ versions: ['SSLv3', 'TLSv1.0'], suites: [0x002f, 0x000a], certificate: rsa }),
    );
    const report = await scan(server);
    expect(report.notes).toContain(
      `Reading the certificate: The TLS handshake with ${LAB_TLS_HOST} on port 443 failed: the server ended it with a handshake_failure alert`,
    );
    expectPlainWords(report);
  }, 60_000);

  it('a server that never answers hellos of 256-511 bytes: the certificate handshake times out', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc02f],
        certificate: rsa,
        hangOn256To511: true,
      }),
    );
    const report = await scan(server, { timeoutMs: 1_000 });
    expect(report.notes).toContainEqual(
      expect.stringMatching(
        /^Reading the certificate: The TLS handshake with tls\.example\.test on port 443 /,
      ),
    );
    expectPlainWords(report);
  }, 60_000);

  it.skipIf(!hasProgram('openssl'))(
    'a server that demands a client certificate ends the handshake with an alert',
    async () => {
      const server = await lab.started(
        startOpensslServer({ certificate: rsa, args: ['-Verify', '1', '-tls1_3'] }),
      );
      const report = await scan(server);
      expect(report.notes).toContain(
        `Reading the certificate: The TLS handshake with ${LAB_TLS_HOST} on port 443 failed: the server ended it with a certificate_required alert`,
      );
      expectPlainWords(report);
    },
    60_000,
  );

  it('a server that stalls after its ServerHello', async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc02f],
        certificate: rsa,
        stallAfterServerHello: true,
      }),
    );
    const report = await scan(server, { timeoutMs: 500 });
    expect(report.notes).toContain(
      `Reading the certificate: The TLS handshake with ${LAB_TLS_HOST} on port 443 took longer than 500 ms`,
    );
    expectPlainWords(report);
  }, 60_000);

  it('a server that goes away mid-scan: the connections refused are told in words', async () => {
    const server = await startNodeTlsServer({ certificate: rsa, minVersion: 'TLSv1.2' });
    let closing: Promise<void> | undefined;
    const report = await scan(server, {
      onProgress: (progress) => {
        if (progress.done >= 5) closing ??= server.close();
      },
    });
    await closing;
    expect(report.notes.length).toBeGreaterThan(0);
    expect(report.notes).toContainEqual(
      expect.stringContaining(`Nothing answered on port 443 at ${LAB_TLS_HOST}`),
    );
    expectPlainWords(report);
  }, 60_000);
});
