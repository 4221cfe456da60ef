// Benchmarks (not tests): DKIM message verification in-process, and the selector probe against
// the lab DNS server. Loopback only.
// Verification: the RFC 8463 Appendix A.3 message (one Ed25519 and one RSA signature) through
// `verifyMessage` with the fixture resolver serving `dkim/rfc8463-dns.zone` from CONFORMANCE_DIR
// (default ../shared/conformance); single-threaded, so the rate is per core.
// Probe: 30 common selectors through the server's DNS client (one session per probe, concurrency
// and budget as the route uses them) against the lab DNS server holding every answer back 20 ms.
// Run alone with `node bench/dkim.ts`; `bench/run.ts` runs it with the rest.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createFixtureResolver,
  dkimCommonSelectors,
  discoverDkimSelectors,
  type FixtureZones,
} from '@rfckit/standards';
import { startDnsServer, type DnsZones } from '@rfckit/testlab';
import { verifyMessage } from '../apps/server/src/tools/dkim/verify-message.ts';
import { createDnsClient } from '../apps/server/src/net/dns.ts';

const VERIFY_SECONDS = Number(process.env.BENCH_DKIM_SECONDS ?? 5);
const VERIFY_TARGET = 1000;
const PROBE_RUNS = Number(process.env.BENCH_DKIM_PROBE_RUNS ?? 20);
const PROBE_WARMUP = 3;
const PROBE_SELECTORS = 30;
const PROBE_LATENCY_MS = 20;
const PROBE_TARGET_MS = 200;
// as POST /v1/dkim/selectors calls it (apps/server/src/tools/dkim/handlers.ts)
const PROBE_CONCURRENCY = 8;
const PROBE_BUDGET_MS = 8000;

export interface DkimBenchResult {
  verify: {
    name: string;
    seconds: number;
    verifications: number;
    /** Verifications per second on one core (the loop is single-threaded). */
    value: number;
    unit: 'verifications/s per core';
    target: number;
    met: boolean;
    /** Mean time of one verification (both signatures), microseconds. */
    meanMicroseconds: number;
    /** Runs where either signature did not pass (must be 0). */
    failures: number;
  };
  probe: {
    name: string;
    selectors: number;
    latencyMs: number;
    concurrency: number;
    runs: number;
    /** Median wall time of one probe, milliseconds. */
    value: number;
    unit: 'ms';
    p90Ms: number;
    minMs: number;
    maxMs: number;
    target: number;
    met: boolean;
    /** Runs that did not find exactly the published selectors, or left any unchecked or failed. */
    failures: number;
  };
}

const conformanceDir = path.resolve(
  import.meta.dirname,
  '..',
  process.env.CONFORMANCE_DIR ?? '../shared/conformance',
);

/**
 * The TXT records of a master file that holds only `name IN TXT ( "…" "…" )` entries and
 * whole-line comments, as `dkim/rfc8463-dns.zone` does (a key's own `;` sit inside quotes).
 */
function readTxtZone(text: string): FixtureZones {
  const body = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith(';'))
    .join('\n');
  const zones: FixtureZones = {};
  for (const match of body.matchAll(/(\S+)\s+IN\s+TXT\s+\(([^)]*)\)/g)) {
    const strings = [...match[2]!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    zones[match[1]!] = { TXT: strings.join('') };
  }
  return zones;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function verifyBench(): Promise<DkimBenchResult['verify']> {
  const message = readFileSync(path.join(conformanceDir, 'dkim', 'rfc8463-signed.eml'), 'utf8');
  const zones = readTxtZone(readFileSync(path.join(conformanceDir, 'dkim', 'rfc8463-dns.zone'), 'utf8'));
  if (Object.keys(zones).length !== 2) throw new Error('rfc8463-dns.zone: expected two key records');
  const resolver = createFixtureResolver(zones);

  let failures = 0;
  const once = async (): Promise<void> => {
    const result = await verifyMessage(message, { resolver });
    if (result.signatures.length !== 2 || result.signatures.some((s) => s.result !== 'pass')) failures++;
  };
  // warm-up: JIT, key import paths
  for (let i = 0; i < 200; i++) await once();
  if (failures > 0) throw new Error('the RFC 8463 message did not pass both signatures');
  resolver.clearQueries();

  let verifications = 0;
  const start = performance.now();
  const end = start + VERIFY_SECONDS * 1000;
  while (performance.now() < end) {
    // batches keep the clock reads out of the measured work
    for (let i = 0; i < 50; i++) await once();
    verifications += 50;
    resolver.clearQueries(); // the fixture resolver logs every query; do not let the log grow
  }
  const elapsed = performance.now() - start;
  const value = Math.round((verifications / elapsed) * 1000);
  return {
    name: 'RFC 8463 A.3 message (ed25519-sha256 + rsa-sha256) verified in-process',
    seconds: Number((elapsed / 1000).toFixed(2)),
    verifications,
    value,
    unit: 'verifications/s per core',
    target: VERIFY_TARGET,
    met: failures === 0 && value >= VERIFY_TARGET,
    meanMicroseconds: Math.round((elapsed * 1000) / verifications),
    failures,
  };
}

async function probeBench(): Promise<DkimBenchResult['probe']> {
  const zoneText = readFileSync(path.join(conformanceDir, 'dkim', 'rfc8463-dns.zone'), 'utf8');
  const keys = Object.values(readTxtZone(zoneText)).map((entry) => entry.TXT as string);
  const selectors = dkimCommonSelectors.slice(0, PROBE_SELECTORS);
  if (selectors.length !== PROBE_SELECTORS) throw new Error(`fewer than ${PROBE_SELECTORS} common selectors`);
  // three of the thirty publish a key, as a domain with a couple of senders would
  const published = new Set([0, 7, 19].map((i) => selectors[i]!.selector));

  // a fresh domain per run: nothing may come from a cache
  const domains = Array.from({ length: PROBE_WARMUP + PROBE_RUNS }, (_, run) => `run${run}.dkim-bench.test`);
  const zones: DnsZones = {};
  for (const domain of domains) {
    selectors.forEach((entry, index) => {
      const name = `${entry.selector}._domainkey.${domain}`;
      zones[name] = published.has(entry.selector)
        ? { TXT: keys[index % keys.length]!, latencyMs: PROBE_LATENCY_MS }
        : { rcode: 'NXDOMAIN', latencyMs: PROBE_LATENCY_MS };
    });
  }
  const lab = await startDnsServer({ zones });
  try {
    // defaults as in production, except the servers
    const dns = createDnsClient({ servers: [lab.address] });
    const durations: number[] = [];
    let failures = 0;
    for (const [run, domain] of domains.entries()) {
      const began = performance.now();
      const outcome = await discoverDkimSelectors(domain, dns.session({ budgetMs: PROBE_BUDGET_MS }), {
        selectors,
        concurrency: PROBE_CONCURRENCY,
        budgetMs: PROBE_BUDGET_MS,
      });
      const elapsed = performance.now() - began;
      const ok =
        outcome.ok &&
        outcome.result.unchecked.length === 0 &&
        outcome.result.failed.length === 0 &&
        outcome.result.found.length === published.size &&
        outcome.result.found.every((f) => published.has(f.selector) && f.status === 'valid');
      if (run < PROBE_WARMUP) {
        if (!ok) throw new Error(`selector probe of ${domain} did not find the published keys`);
        continue;
      }
      if (!ok) failures++;
      durations.push(elapsed);
    }
    durations.sort((a, b) => a - b);
    const value = Number(percentile(durations, 50).toFixed(1));
    return {
      name: `${PROBE_SELECTORS} selectors probed, lab DNS with ${PROBE_LATENCY_MS} ms latency`,
      selectors: PROBE_SELECTORS,
      latencyMs: PROBE_LATENCY_MS,
      concurrency: PROBE_CONCURRENCY,
      runs: PROBE_RUNS,
      value,
      unit: 'ms',
      p90Ms: Number(percentile(durations, 90).toFixed(1)),
      minMs: Number(durations[0]!.toFixed(1)),
      maxMs: Number(durations.at(-1)!.toFixed(1)),
      target: PROBE_TARGET_MS,
      met: failures === 0 && value < PROBE_TARGET_MS,
      failures,
    };
  } finally {
    await lab.close();
  }
}

export async function dkimBench(): Promise<DkimBenchResult> {
  return { verify: await verifyBench(), probe: await probeBench() };
}

export function describeDkimBench(result: DkimBenchResult): string {
  const { verify, probe } = result;
  return (
    `DKIM verify: ${verify.value}/s per core (${verify.verifications} in ${verify.seconds} s, ` +
    `mean ${verify.meanMicroseconds} µs, ${verify.failures} failed; target ≥ ${verify.target}/s)\n` +
    `DKIM selector probe: ${probe.selectors} selectors (${probe.latencyMs} ms latency, ${probe.concurrency} at once) ` +
    `median ${probe.value} ms, p90 ${probe.p90Ms} ms over ${probe.runs} runs, ${probe.failures} failed ` +
    `(target < ${probe.target} ms)`
  );
}

if (import.meta.main) {
  const result = await dkimBench();
  console.log(describeDkimBench(result));
  if (!result.verify.met || !result.probe.met) process.exitCode = 1;
}
