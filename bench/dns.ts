// Benchmark (not a test): 1,000 distinct A queries through the server's DNS client against the
// lab DNS server, each answer held back 10 ms, all in flight at once. Loopback only.
// Run alone with `node bench/dns.ts`; `bench/run.ts` runs it with the rest.
import { startDnsServer, type DnsZones } from '@rfckit/testlab';
import { createDnsClient } from '../apps/server/src/net/dns.ts';

const QUERIES = Number(process.env.BENCH_DNS_QUERIES ?? 1000);
const LATENCY_MS = 10;
const TARGET_MS = 1500;

export interface DnsBenchResult {
  name: string;
  queries: number;
  latencyMs: number;
  /** Wall time for all queries, milliseconds. */
  value: number;
  unit: 'ms';
  target: number;
  met: boolean;
  queriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

export async function dnsBench(): Promise<DnsBenchResult> {
  const zones: DnsZones = {};
  for (let i = 0; i < QUERIES + 50; i++) {
    zones[`host${i}.bench.test`] = { A: `127.0.${(i >> 8) & 255}.${i & 255}`, latencyMs: LATENCY_MS };
  }
  const lab = await startDnsServer({ zones });
  try {
    // defaults as in production, except the servers
    const dns = createDnsClient({ servers: [lab.address] });
    // warm-up: sockets, JIT, the lab's own code paths
    await Promise.all(Array.from({ length: 50 }, (_, i) => dns.query(`host${QUERIES + i}.bench.test`, 'A')));

    const durations: number[] = [];
    const start = performance.now();
    const results = await Promise.all(
      Array.from({ length: QUERIES }, async (_, i) => {
        const began = performance.now();
        const result = await dns.query(`host${i}.bench.test`, 'A');
        durations.push(performance.now() - began);
        return result;
      }),
    );
    const elapsed = performance.now() - start;
    const failures = results.filter(
      (r, i) => r.status !== 'ok' || r.records[0]?.address !== `127.0.${(i >> 8) & 255}.${i & 255}`,
    ).length;
    durations.sort((a, b) => a - b);
    const value = Math.round(elapsed);
    return {
      name: `${QUERIES} distinct A queries, lab DNS with ${LATENCY_MS} ms latency`,
      queries: QUERIES,
      latencyMs: LATENCY_MS,
      value,
      unit: 'ms',
      target: TARGET_MS,
      met: failures === 0 && value < TARGET_MS,
      queriesPerSecond: Math.round((QUERIES / elapsed) * 1000),
      p50Ms: Number(percentile(durations, 50).toFixed(1)),
      p99Ms: Number(percentile(durations, 99).toFixed(1)),
      failures,
    };
  } finally {
    await lab.close();
  }
}

export function describeDnsBench(result: DnsBenchResult): string {
  return (
    `DNS: ${result.queries} A queries (${result.latencyMs} ms latency) in ${result.value} ms ` +
    `(${result.queriesPerSecond}/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.failures} failed; ` +
    `target < ${result.target} ms)`
  );
}

if (import.meta.main) {
  const result = await dnsBench();
  console.log(describeDnsBench(result));
  if (!result.met) process.exitCode = 1;
}
