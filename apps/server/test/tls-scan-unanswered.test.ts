// Probes that get no answer in time prove nothing: the scanner asks again one at a time, and what
// stays silent is "not tested" (the report incomplete, the findings unknown, no grade), never
// "not accepted". Two lab servers: openssl s_server, which serves one connection at a time, held
// busy by a silent client while the scan's first probes wait; and the scripted server silent to
// every TLS 1.0 hello.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type IssuedCertificate,
  type LabTlsServer,
  hasProgram,
  startOpensslServer,
  startScriptedTlsServer,
} from '@rfckit/testlab';
import { type TlsScanReport, tlsAnalysis } from '@rfckit/standards';
import { scanTls } from '../src/tls/scan.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';
import {
  type LabConfig,
  peerInstalled,
  peerSuites,
  suiteEntry,
  suitesOfCipherString,
} from './helpers/tls-peers.ts';

const run = promisify(execFile);
const hasOpenssl = hasProgram('openssl');
const legacyCiphers = 'DES-CBC3-SHA:AES128-SHA:ECDHE-RSA-AES128-SHA:DHE-RSA-AES128-SHA:@SECLEVEL=0';
const opensslConfig: LabConfig = {
  id: 'openssl-serial-legacy',
  name: 'openssl s_server, TLS 1.0-1.2, CBC suites with a 1024-bit DH prime',
  certificate: 'rsa',
  server: { kind: 'openssl', args: ['-cipher', legacyCiphers, '-no_tls1_3'], dhparam1024: true },
  versions: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
  ciphers: legacyCiphers,
};

let lab: TlsLab;
let rsa: IssuedCertificate;
let dhparamDir: string;
beforeAll(async () => {
  lab = await createTlsLab();
  rsa = await lab.issue({ keyType: 'rsa-2048' });
  dhparamDir = mkdtempSync(path.join(tmpdir(), 'rfckit-dh-'));
}, 30_000);

afterAll(async () => {
  await lab.close();
  rmSync(dhparamDir, { recursive: true, force: true });
});

function entries(report: TlsScanReport): string[] {
  return report.versions
    .flatMap((version) => version.suites.map((suite) => suiteEntry(version.version, suite.code)))
    .sort();
}

const finding = (report: TlsScanReport, id: string) =>
  report.vulnerabilities.find((vulnerability) => vulnerability.id === id);

describe('a server that serves one connection at a time, busy while the first probes wait', () => {
  let server: LabTlsServer;
  let report: TlsScanReport;

  beforeAll(async () => {
    if (!hasOpenssl) return;
    const dhparam = path.join(dhparamDir, 'dh1024.pem');
    await run('openssl', ['dhparam', '-out', dhparam, '1024'], { timeout: 60_000 });
    server = await lab.started(
      startOpensslServer({
        certificate: rsa,
        args: ['-cipher', legacyCiphers, '-no_tls1_3', '-dhparam', dhparam],
      }),
    );
    // a client that connects once the first probe is answered and says nothing: s_server waits
    // on it, and every probe of the first round waits past its time behind it; it leaves once
    // that whole round is done
    let blocker: Socket | undefined;
    let released = false;
    report = await scanTls(
      lab.session(server.port),
      { host: LAB_TLS_HOST, port: 443 },
      {
        timeoutMs: 1_500,
        onProgress: (progress) => {
          if (blocker === undefined) blocker = connect(server.port, '127.0.0.1').on('error', () => undefined);
          else if (!released && progress.total > 0 && progress.done === progress.total) {
            released = true;
            blocker.destroy();
          }
        },
      },
    );
    blocker?.destroy();
  }, 120_000);

  it.skipIf(!hasOpenssl)(
    'asks again one at a time and finds every version and suite configured',
    async () => {
      expect(report.notes).toContain(
        `${LAB_TLS_HOST} left some probes unanswered while several connections were open and answered them one at a time, so the rest of the scan used one connection at a time.`,
      );
      expect(entries(report)).toEqual([...(await suitesOfCipherString(opensslConfig))].sort());
      expect(report.versions.map((version) => [version.version, version.supported, version.tested])).toEqual([
        ['SSLv2', false, undefined],
        ['SSLv3', false, undefined],
        ['TLSv1.0', true, undefined],
        ['TLSv1.1', true, undefined],
        ['TLSv1.2', true, undefined],
        ['TLSv1.3', false, undefined],
      ]);
      expect(report.versions.map((version) => version.refusal ?? '')).not.toContain('no answer in time');
      expect(report.incomplete).toBe(false);
      expect(finding(report, 'tls10-beast')?.status).toBe('vulnerable');
      expect(finding(report, 'sslv2-drown')).toMatchObject({
        status: 'ok',
        evidence: 'SSL 2.0 is not accepted.',
      });
    },
  );

  it.skipIf(!hasOpenssl || !peerInstalled.sslscan)(
    'reports what sslscan reports',
    async () => {
      expect(entries(report)).toEqual([...(await peerSuites.sslscan(server.port))].sort());
    },
    60_000,
  );
});

describe('a server silent to every TLS 1.0 hello', () => {
  let report: TlsScanReport;

  beforeAll(async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
        suites: [0xc02f, 0x002f],
        certificate: rsa,
        silentFor: ['TLSv1.0'],
      }),
    );
    report = await scanTls(lab.session(server.port), { host: LAB_TLS_HOST, port: 443 }, { timeoutMs: 1_500 });
  }, 120_000);

  it('reports TLS 1.0 as not tested, the scan incomplete, and says so', () => {
    const tls10 = report.versions.find((version) => version.version === 'TLSv1.0');
    expect(tls10).toEqual({ version: 'TLSv1.0', supported: false, suites: [], tested: false });
    expect(report.versions.filter((version) => version.supported).map((version) => version.version)).toEqual([
      'TLSv1.1',
      'TLSv1.2',
    ]);
    expect(report.incomplete).toBe(true);
    expect(report.notes).toContain(
      'TLS 1.0 could not be tested: the server sent no answer within 1500 ms, even to a probe on its own, so whether it is accepted is unknown.',
    );
  });

  it('says "not tested" where a finding rests on TLS 1.0, never "not accepted"', () => {
    expect(finding(report, 'tls10-beast')).toMatchObject({
      status: 'unknown',
      evidence: 'TLSv1.0 could not be tested (the scan notes say why), so this is not known.',
    });
    for (const vulnerability of report.vulnerabilities)
      expect(vulnerability.evidence).not.toMatch(/TLS ?(v)?1\.0 is not accepted|with TLS 1\.0\./);
    // SSL 2.0 and 3.0 were answered (a close, an alert): those verdicts stand
    expect(finding(report, 'sslv2-drown')?.status).toBe('ok');
    expect(finding(report, 'sslv3-poodle')?.status).toBe('ok');
  });

  it('is not graded, and the reason names the version', () => {
    const analysis = tlsAnalysis(report, { checked: false, note: 'not an HTTPS port' });
    expect(analysis.grading).toBeNull();
    expect(analysis.grade).toBeNull();
    expect(analysis.score).toBeNull();
    expect(analysis.ungradedReason).toBe(
      'TLS 1.0 could not be tested (the scan notes say why), and the grade rests on every protocol version and suite',
    );
  });
});

describe('a server silent to SSL 2.0 hellos', () => {
  let report: TlsScanReport;

  beforeAll(async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        versions: ['TLSv1.2'],
        suites: [0xc02f],
        certificate: rsa,
        ssl2Kinds: [0x0700c0],
        silentFor: ['SSLv2'],
      }),
    );
    report = await scanTls(lab.session(server.port), { host: LAB_TLS_HOST, port: 443 }, { timeoutMs: 1_500 });
  }, 120_000);

  it('reads silence to SSL 2.0, even on its own, as SSL 2.0 not spoken (as sslscan and testssl.sh do), and grades', () => {
    expect(report.versions.find((version) => version.version === 'SSLv2')).toEqual({
      version: 'SSLv2',
      supported: false,
      suites: [],
      refusal: 'no answer to an SSL 2.0 hello, even on its own: not spoken',
    });
    expect(report.versions.filter((version) => version.tested === false)).toEqual([]);
    // nothing was recovered by asking again, and SSL 2.0 is no open question
    expect(report.notes.join('\n')).not.toMatch(/SSL 2\.0|one at a time/);
    expect(finding(report, 'sslv2-drown')?.status).toBe('ok');
    expect(tlsAnalysis(report, { checked: false, note: 'not an HTTPS port' }).grade).not.toBeNull();
  });
});
