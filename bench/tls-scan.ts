// Benchmark (not a test): a full TLS scan of a lab TLS 1.2 + 1.3 server (Node's tls, loopback)
// by our scanner and by the peers admins use, in the same run on the same server: sslscan
// (every protocol and suite, its default checks) and testssl.sh once in its narrowest
// suite-enumeration mode (-E). Reports the median times, the ratios (target: ours / sslscan
// ≤ 1.0, ours / testssl.sh < 0.1) and how many connections one scan of ours opened.
// Run alone with `node bench/tls-scan.ts`; `bench/run.ts` runs it with the rest.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestCa, hasProgram, startNodeTlsServer } from '@rfckit/testlab';
import { parseConnectTo } from '../apps/server/src/net/connect-to.ts';
import { createNetLayer } from '../apps/server/src/net/layer.ts';
import { scanTls } from '../apps/server/src/tls/scan.ts';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_TLS_ROUNDS ?? 5);
const HOST = 'tls.example.test';

export interface TlsScanBenchResult {
  name: string;
  rounds: number;
  oursMedianMs: number;
  connectionsPerScan: number;
  suitesFound: number;
  sslscanMedianMs: number | null;
  /** ours / sslscan: the target is at most 1.0. */
  ratioToSslscan: number | null;
  testsslMs: number | null;
  /** ours / testssl.sh: the target is under 0.1. */
  ratioToTestssl: number | null;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

export async function tlsScanBench(): Promise<TlsScanBenchResult> {
  const ca = await createTestCa();
  const certificate = await ca.issue({ names: [HOST] });
  const dir = mkdtempSync(path.join(tmpdir(), 'rfckit-bench-tls-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  const server = await startNodeTlsServer({ certificate, minVersion: 'TLSv1.2' });
  const net = createNetLayer({
    allow: ['127.0.0.0/8'],
    connectTo: parseConnectTo(`${HOST}::127.0.0.1:${server.port}`),
    caFile,
    userAgent: 'rfckit-bench',
  });
  const testssl = ['testssl', 'testssl.sh'].find((name) => hasProgram(name));
  try {
    const ours: number[] = [];
    const peers: number[] = [];
    let connections = 0;
    let suitesFound = 0;
    // alternate, so that a busy moment of the machine falls on both
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(
        await timed(async () => {
          const report = await scanTls(net.session(), { host: HOST, port: 443 });
          connections = report.stats.connections;
          suitesFound = report.versions.reduce((sum, version) => sum + version.suites.length, 0);
        }),
      );
      if (hasProgram('sslscan'))
        peers.push(
          await timed(() =>
            run('sslscan', ['--no-colour', `--sni-name=${HOST}`, `127.0.0.1:${server.port}`], {
              timeout: 120_000,
            }),
          ),
        );
    }
    let testsslMs: number | null = null;
    if (testssl !== undefined) {
      const jsonFile = path.join(dir, 'testssl.json');
      testsslMs = await timed(() =>
        run(
          testssl,
          [
            '--quiet',
            '--warnings',
            'off',
            '--color',
            '0',
            '-E',
            '--jsonfile',
            jsonFile,
            `127.0.0.1:${server.port}`,
          ],
          { timeout: 300_000 },
        ),
      );
    }
    const oursMedianMs = median(ours);
    const sslscanMedianMs = peers.length === 0 ? null : median(peers);
    return {
      name: 'full TLS scan of a lab TLS 1.2 + 1.3 server (Node tls, default suites)',
      rounds: ROUNDS,
      oursMedianMs: Math.round(oursMedianMs),
      connectionsPerScan: connections,
      suitesFound,
      sslscanMedianMs: sslscanMedianMs === null ? null : Math.round(sslscanMedianMs),
      ratioToSslscan: sslscanMedianMs === null ? null : Number((oursMedianMs / sslscanMedianMs).toFixed(2)),
      testsslMs: testsslMs === null ? null : Math.round(testsslMs),
      ratioToTestssl: testsslMs === null ? null : Number((oursMedianMs / testsslMs).toFixed(3)),
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function describeTlsScanBench(result: TlsScanBenchResult): string {
  const sslscan =
    result.sslscanMedianMs === null
      ? 'sslscan not installed'
      : `sslscan ${result.sslscanMedianMs} ms, ours / sslscan ${result.ratioToSslscan} (target ≤ 1.0)`;
  const testssl =
    result.testsslMs === null
      ? 'testssl.sh not installed'
      : `testssl.sh -E ${result.testsslMs} ms, ours / testssl.sh ${result.ratioToTestssl} (target < 0.1)`;
  return (
    `TLS scan: ours ${result.oursMedianMs} ms (median of ${result.rounds}, ${result.connectionsPerScan} connections, ` +
    `${result.suitesFound} suites found); ${sslscan}; ${testssl}`
  );
}

if (import.meta.main) console.log(describeTlsScanBench(await tlsScanBench()));
