// The CCS injection probe (CVE-2014-0224): a ChangeCipherSpec sent right after ServerHelloDone,
// before any key exchange, which RFC 5246 §7.1 does not allow. The scripted server plays an
// OpenSSL from before 0.9.8za/1.0.0m/1.0.1h (takes it, then cannot decrypt what follows) and a
// fixed one (unexpected_message); Node's server and `openssl s_server` are real, fixed OpenSSL 3.
// testssl.sh's run_ccs_injection is the peer when installed (CI installs it).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  type IssuedCertificate,
  type LabTlsServer,
  type ScriptedTlsOptions,
  hasProgram,
  startNodeTlsServer,
  startOpensslServer,
  startScriptedTlsServer,
} from '@rfckit/testlab';
import type { TlsAnalysis, TlsScanReport, Vulnerability } from '@rfckit/standards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanTls } from '../src/tls/scan.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';
import { testsslProgram } from './helpers/tls-peers.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const run = promisify(execFile);

let lab: TlsLab;
let rsa: IssuedCertificate;
/** TLS 1.0-1.2 with an AEAD and two CBC suites, as OpenSSL 1.0.1 served them. */
function scripted(ccsInjection?: 'vulnerable' | 'patched'): ScriptedTlsOptions {
  return {
    versions: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2'],
    suites: [0xc02f, 0xc013, 0x002f],
    certificate: rsa,
    ...(ccsInjection === undefined ? {} : { ccsInjection }),
  };
}

function scan(server: LabTlsServer): Promise<TlsScanReport> {
  return scanTls(lab.session(server.port), { host: LAB_TLS_HOST, port: 443 }, { timeoutMs: 2_000 });
}

function ccsFinding(report: TlsScanReport): Vulnerability | undefined {
  return report.vulnerabilities.find((vulnerability) => vulnerability.id === 'ccs-injection');
}

beforeAll(async () => {
  lab = await createTlsLab();
  rsa = await lab.issue({ keyType: 'rsa-2048' });
});

afterAll(async () => {
  await lab.close();
});

describe('the early ChangeCipherSpec probe', { timeout: 60_000 }, () => {
  it('finds CCS injection on a server that takes the early ChangeCipherSpec', async () => {
    const report = await scan(await lab.started(startScriptedTlsServer(scripted('vulnerable'))));
    const finding = ccsFinding(report);
    expect(finding).toMatchObject({
      status: 'vulnerable',
      severity: 'critical',
      references: ['CVE-2014-0224', 'RFC 5246 §7.1'],
    });
    // testssl.sh's order: the lowest TLS version the server accepts
    expect(finding?.evidence).toBe(
      'The server took a ChangeCipherSpec sent right after its ServerHelloDone, before any key exchange (TLSv1.0), and could not decrypt what followed: to the first: no answer; to a second: alert decryption_failed.',
    );
    expect(finding?.fix).toMatch(/0\.9\.8za, 1\.0\.0m or 1\.0\.1h or later/);
  });

  it('does not find it on a fixed server, which refuses with unexpected_message', async () => {
    for (const options of [scripted('patched'), scripted()]) {
      const report = await scan(await lab.started(startScriptedTlsServer(options)));
      expect(ccsFinding(report)).toMatchObject({
        status: 'ok',
        evidence:
          'The server did not take a ChangeCipherSpec sent before the key exchange (TLSv1.0): to the first: alert unexpected_message; to a second: the connection closed.',
      });
    }
  });

  it('does not find it on a Node TLS 1.2 + 1.3 server (OpenSSL 3)', async () => {
    const report = await scan(
      await lab.started(startNodeTlsServer({ certificate: rsa, minVersion: 'TLSv1.2' })),
    );
    const finding = ccsFinding(report);
    expect(finding?.status).toBe('ok');
    expect(finding?.evidence).toMatch(
      /^The server did not take a ChangeCipherSpec sent before the key exchange \(TLSv1\.2\)/,
    );
  });

  it.skipIf(!hasProgram('openssl'))('does not find it on openssl s_server (OpenSSL 3)', async () => {
    const report = await scan(await lab.started(startOpensslServer({ certificate: rsa, args: ['-tls1_2'] })));
    const finding = ccsFinding(report);
    expect(finding?.status).toBe('ok');
    expect(finding?.evidence).toMatch(/\(TLSv1\.2\): to the first: alert unexpected_message/);
  });

  it('says a TLS 1.3-only server is not affected and was not tested', async () => {
    const report = await scan(
      await lab.started(startNodeTlsServer({ certificate: rsa, minVersion: 'TLSv1.3' })),
    );
    expect(ccsFinding(report)).toMatchObject({
      status: 'ok',
      evidence:
        'Only TLS 1.3 is accepted, which drops a ChangeCipherSpec unread (RFC 8446 §5): CVE-2014-0224 does not apply, so it was not tested.',
    });
  });

  it('cannot tell when the server sends no ServerHelloDone to send the ChangeCipherSpec after', async () => {
    const server = await lab.started(
      startScriptedTlsServer({ ...scripted('vulnerable'), stallAfterServerHello: true }),
    );
    const report = await scanTls(
      lab.session(server.port),
      { host: LAB_TLS_HOST, port: 443 },
      { timeoutMs: 300 },
    );
    expect(ccsFinding(report)).toMatchObject({
      status: 'unknown',
      evidence:
        'The early ChangeCipherSpec probe (TLSv1.0) could not run: the server sent no ServerHelloDone.',
    });
  });
});

/** testssl.sh's CCS verdict (`-I`): its JSON severity, CRITICAL for vulnerable and OK or WARN for not. */
async function testsslCcs(port: number): Promise<{ severity: string; finding: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rfckit-testssl-ccs-'));
  const file = path.join(dir, 'out.json');
  try {
    await run(
      testsslProgram ?? 'testssl',
      ['--quiet', '--warnings', 'off', '--color', '0', '-I', '--jsonfile', file, `127.0.0.1:${port}`],
      { timeout: 100_000 },
    );
    const findings = JSON.parse(readFileSync(file, 'utf8')) as {
      id: string;
      severity: string;
      finding: string;
    }[];
    const ccs = findings.find((entry) => entry.id === 'CCS');
    if (ccs === undefined) throw new Error(`testssl.sh reported no CCS finding: ${JSON.stringify(findings)}`);
    return ccs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('against testssl.sh', () => {
  it.skipIf(testsslProgram === undefined)(
    'reaches the same verdict on the vulnerable and the fixed scripted server',
    async () => {
      const vulnerable = await lab.started(startScriptedTlsServer(scripted('vulnerable')));
      const patched = await lab.started(startScriptedTlsServer(scripted('patched')));
      const [theirsVulnerable, theirsPatched, oursVulnerable, oursPatched] = await Promise.all([
        testsslCcs(vulnerable.port),
        testsslCcs(patched.port),
        scan(vulnerable),
        scan(patched),
      ]);
      expect(theirsVulnerable).toMatchObject({ severity: 'CRITICAL', finding: 'VULNERABLE' });
      expect(ccsFinding(oursVulnerable)?.status).toBe('vulnerable');
      expect(theirsPatched).toMatchObject({ severity: 'OK', finding: 'not vulnerable' });
      expect(ccsFinding(oursPatched)?.status).toBe('ok');
    },
    120_000,
  );
});

describe('POST /v1/tls-cipher/analyse on a server open to CCS injection', { timeout: 60_000 }, () => {
  const CCS_HOST = 'ccs.tls.example.test';
  const connectTo: string[] = [];

  beforeAll(async () => {
    const server = await lab.started(
      startScriptedTlsServer({
        ...scripted('vulnerable'),
        certificate: await lab.ca.issue({ names: [CCS_HOST] }),
      }),
    );
    connectTo.push(`${CCS_HOST}::127.0.0.1:${server.port}`);
  });

  const tool = toolTestApp({ lab: () => ({ connectTo }), env: () => ({ OUTBOUND_CA_FILE: lab.caFile }) });

  it('grades F and names the CCS cap with its reason', async () => {
    const analysis = await tool.data<TlsAnalysis>('/v1/tls-cipher/analyse', { host: CCS_HOST });
    expect(analysis.grade).toBe('F');
    const failing = analysis.grading?.caps.filter((cap) => cap.grade === 'F') ?? [];
    expect(failing.map((cap) => cap.code)).toEqual(['CCS_INJECTION']);
    expect(failing[0]).toMatchObject({
      reason:
        'An early ChangeCipherSpec makes the server switch to keys a man in the middle can compute, so the session can be read and altered',
      reference: 'CVE-2014-0224; RFC 5246 §7.1',
    });
    expect(analysis.vulnerabilities).toContain(
      'ChangeCipherSpec injection: The server took a ChangeCipherSpec sent right after its ServerHelloDone, before any key exchange (TLSv1.0), and could not decrypt what followed: to the first: no answer; to a second: alert decryption_failed.',
    );
    expect(analysis.recommendations).toContain('Upgrade OpenSSL (0.9.8za, 1.0.0m, 1.0.1h or later)');
  });
});
