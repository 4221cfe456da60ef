// Benchmarks (not tests): DNSKEY validate throughput against a bare Fastify hello-world on
// this machine, and the gzip size of the JS the welcome page loads. Loopback only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../e2e/chromium.ts';
import { activityBench, describeActivityBench } from './activity.ts';
import { dkimBench, describeDkimBench } from './dkim.ts';
import { dnsBench, describeDnsBench } from './dns.ts';
import { describeDnssecChainBench, dnssecChainBench } from './dnssec-chain.ts';
import { describeHttpHeadersBench, httpHeadersBench } from './http-headers.ts';
import { describeMtaStsCheckBench, mtaStsCheckBench } from './mta-sts-check.ts';
import { describeSpfBench, spfBench } from './spf.ts';
import { describeSpfLintBench, spfLintBench } from './spf-lint.ts';
import { root, start, stop, throughput, waitForHealth } from './throughput.ts';
import { describeTlsScanBench, tlsScanBench } from './tls-scan.ts';

async function welcomeJs(): Promise<Record<string, unknown>> {
  const port = 4393;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-bench-'));
  const app = start(['apps/server/src/server.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
  try {
    await waitForHealth(`http://127.0.0.1:${port}/v1/health`, app);
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
    });
    await page.goto(`http://127.0.0.1:${port}/welcome`, { waitUntil: 'networkidle' });
    const dist = path.join(root, 'apps/web/dist');
    const files = [...scripts].sort().map((p) => {
      const bytes = readFileSync(path.join(dist, p));
      return { path: p, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
    });
    const gzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
    return { files, gzipBytes, gzipKB: Number((gzipBytes / 1024).toFixed(1)), targetKB: 180 };
  } finally {
    await browser.close();
    await stop(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const js = await welcomeJs();
console.log(
  `welcome page JS: ${js.gzipKB} KB gzip in ${(js.files as unknown[]).length} files (target ≤ 180 KB)`,
);
const rps = await throughput();
const h = rps.helloWorld as { rps: number };
const d = rps.dnskeyValidate as { rps: number; p99Ms: number };
console.log(`hello-world: ${h.rps} req/s; POST /v1/dnskey/validate: ${d.rps} req/s (p99 ${d.p99Ms} ms)`);
const b = rps.dnskeyValidateBare as { rps: number };
console.log(
  `the validation alone in the bare server: ${b.rps} req/s; signed-in / bare: ${rps.stackRatio} (target ≥ 0.65)`,
);
console.log(`against hello-world: ${rps.ratio}, the bare validation ${rps.bareRatio} (for comparison only)`);
const u = rps.dnskeyValidateUnauthenticated as { rps: number };
console.log(
  `same call without sign-in: ${u.rps} req/s; signed-in / unauthenticated: ${rps.authenticatedRatio} (target ≥ 0.7)`,
);

const dns = await dnsBench();
console.log(describeDnsBench(dns));

const activity = await activityBench();
console.log(describeActivityBench(activity));

const httpHeaders = await httpHeadersBench();
console.log(describeHttpHeadersBench(httpHeaders));

const spf = await spfBench();
console.log(describeSpfBench(spf));

const spfLint = await spfLintBench();
console.log(describeSpfLintBench(spfLint));

const dkim = await dkimBench();
console.log(describeDkimBench(dkim));

const tlsScan = await tlsScanBench();
console.log(describeTlsScanBench(tlsScan));

const dnssecChain = await dnssecChainBench();
console.log(describeDnssecChainBench(dnssecChain));

const mtaStsCheck = await mtaStsCheckBench();
console.log(describeMtaStsCheckBench(mtaStsCheck));

const results = {
  date: new Date().toISOString(),
  node: process.version,
  welcomeJs: js,
  throughput: rps,
  dns,
  activity,
  httpHeaders,
  spf,
  spfLint,
  dkim,
  tlsScan,
  dnssecChain,
  mtaStsCheck,
};
const resultsFile = path.join(root, 'bench/results/latest.json');
// the load run (npm run bench:load) keeps its own key: carried over, not dropped
const { load } = JSON.parse(readFileSync(resultsFile, 'utf8')) as { load?: unknown };
writeFileSync(
  resultsFile,
  JSON.stringify({ ...results, ...(load === undefined ? {} : { load }) }, null, 2) + '\n',
);
console.log('written to bench/results/latest.json');
