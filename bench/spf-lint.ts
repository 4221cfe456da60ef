// Benchmark (not a test): lintSpf() on a record with 8 includes, each with one nested include,
// through the server's DNS client against the lab DNS server holding every answer back 20 ms.
// Depth by depth in parallel that is 3 round trips of TXT (plus the a/mx lookups beside them);
// one by one it would be 17. Each run asks fresh names, so no cache helps. Loopback only.
// Run alone with `node bench/spf-lint.ts`; `bench/run.ts` runs it with the rest.
import { lintSpf } from '@rfckit/standards';
import { startDnsServer, type DnsZones } from '@rfckit/testlab';
import { createDnsClient } from '../apps/server/src/net/dns.ts';

const RUNS = Number(process.env.BENCH_SPF_LINT_RUNS ?? 20);
const WARMUP_RUNS = 3;
const INCLUDES = 8;
const LATENCY_MS = 20;
const TARGET_MS = 150;

export interface SpfLintBenchResult {
  name: string;
  runs: number;
  latencyMs: number;
  /** Median wall time of one lint, milliseconds. */
  value: number;
  unit: 'ms';
  target: number;
  met: boolean;
  p90Ms: number;
  maxMs: number;
  /** DNS queries one lint made. */
  queriesPerLint: number;
  /** Runs whose result was not the expected tree (17 nodes, 16 lookups). */
  failures: number;
}

/** One run's zone: `r<n>.bench.test` with 8 includes, each including one more record. */
function runZones(run: number, zones: DnsZones): string {
  const root = `r${run}.bench.test`;
  const includes: string[] = [];
  for (let i = 0; i < INCLUDES; i++) {
    const include = `i${i}.${root}`;
    const nested = `n${i}.${root}`;
    includes.push(`include:${include}`);
    zones[include] = { TXT: `v=spf1 ip4:198.51.${i}.0/24 include:${nested} ~all`, latencyMs: LATENCY_MS };
    zones[nested] = { TXT: `v=spf1 ip4:203.0.${i}.0/24 ip6:2001:db8:${i}::/48 -all`, latencyMs: LATENCY_MS };
  }
  zones[root] = { TXT: `v=spf1 ip4:192.0.2.0/24 ${includes.join(' ')} -all`, latencyMs: LATENCY_MS };
  return root;
}

export async function spfLintBench(): Promise<SpfLintBenchResult> {
  const zones: DnsZones = {};
  const roots = Array.from({ length: WARMUP_RUNS + RUNS }, (_, run) => runZones(run, zones));
  const lab = await startDnsServer({ zones });
  try {
    // production defaults except the servers; one session per lint, as the route does
    const dns = createDnsClient({ servers: [lab.address] });
    const durations: number[] = [];
    let failures = 0;
    let queriesPerLint = 0;
    for (const [run, domain] of roots.entries()) {
      lab.clearQueries();
      const began = performance.now();
      const result = await lintSpf({ domain }, { resolver: dns.session() });
      const elapsed = performance.now() - began;
      if (result.tree.length !== 1 + 2 * INCLUDES || result.lookups !== 2 * INCLUDES) failures++;
      if (run < WARMUP_RUNS) continue;
      durations.push(elapsed);
      queriesPerLint = lab.queries.length;
    }
    durations.sort((a, b) => a - b);
    const at = (p: number) =>
      durations[Math.min(durations.length - 1, Math.floor((durations.length * p) / 100))] ?? 0;
    const value = Number(at(50).toFixed(1));
    return {
      name: `lint of a record with ${INCLUDES} includes, each with one nested include, lab DNS with ${LATENCY_MS} ms latency`,
      runs: RUNS,
      latencyMs: LATENCY_MS,
      value,
      unit: 'ms',
      target: TARGET_MS,
      met: failures === 0 && value < TARGET_MS,
      p90Ms: Number(at(90).toFixed(1)),
      maxMs: Number((durations.at(-1) ?? 0).toFixed(1)),
      queriesPerLint,
      failures,
    };
  } finally {
    await lab.close();
  }
}

export function describeSpfLintBench(result: SpfLintBenchResult): string {
  return (
    `SPF lint: ${INCLUDES} includes × 1 nested (${result.latencyMs} ms DNS latency) in ${result.value} ms median ` +
    `(p90 ${result.p90Ms} ms, max ${result.maxMs} ms, ${result.queriesPerLint} queries, ${result.failures} failed; ` +
    `target < ${result.target} ms)`
  );
}

if (import.meta.main) {
  const result = await spfLintBench();
  console.log(describeSpfLintBench(result));
  if (!result.met) process.exitCode = 1;
}
