// Benchmark (not a test): the MTA-STS live check (checkMtaSts, as the route runs it) of the lab's
// enforce domain: its _mta-sts record, the policy over HTTPS from the lab web server, the MX lookup
// and three MX hosts' SMTP sessions up to the TLS handshake, through the server's guarded net layer
// against the lab DNS server holding every answer back 20 ms. The MX hosts are checked at once, so
// the check costs about the slowest host rather than the sum. Loopback only. Run alone with
// `node bench/mta-sts-check.ts`; `bench/run.ts` runs it with the rest.
import { labEnv, startDnsServer, startMtaStsLab, startWebServer } from '@rfckit/testlab';
import { parseConnectTo } from '../apps/server/src/net/connect-to.ts';
import { createNetLayer } from '../apps/server/src/net/layer.ts';
import { checkMtaSts } from '../apps/server/src/tools/mta-sts/check.ts';

const RUNS = Number(process.env.BENCH_MTA_STS_RUNS ?? 20);
const WARMUP_RUNS = 3;
const LATENCY_MS = 20;
const TARGET_MS = 1000;

export interface MtaStsCheckBenchResult {
  name: string;
  runs: number;
  latencyMs: number;
  mxHosts: number;
  /** Median wall time of one check, milliseconds. */
  value: number;
  unit: 'ms';
  target: number;
  met: boolean;
  p90Ms: number;
  maxMs: number;
  /** Runs whose result was not the expected one: fail, with mail to mx2 failing and the others passing. */
  failures: number;
}

export async function mtaStsCheckBench(): Promise<MtaStsCheckBenchResult> {
  const web = await startWebServer({ sites: {} });
  const lab = await startMtaStsLab({ web, latencyMs: LATENCY_MS });
  const dns = await startDnsServer({ zones: lab.zones });
  try {
    const env = labEnv({ dns, web, connectTo: lab.connectTo });
    const layer = createNetLayer({
      dnsServers: [dns.address],
      allow: [env.OUTBOUND_ALLOW ?? '127.0.0.0/8'],
      connectTo: parseConnectTo(env.OUTBOUND_CONNECT_TO ?? ''),
      caFile: web.caFile,
      userAgent: 'rfckit-bench',
    });
    const domain = lab.domains.enforce;
    const mx2 = `mx2.${domain}`;
    const durations: number[] = [];
    let failures = 0;
    for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
      // a fresh session per check, as the route makes one per request: nothing is cached
      const began = performance.now();
      const result = await checkMtaSts(
        { domain },
        { net: layer.session({ dns: { budgetMs: 15_000 } }), signal: new AbortController().signal },
      );
      const elapsed = performance.now() - began;
      if (result.verdict !== 'fail' || result.failingHosts.join() !== mx2 || result.mx.hosts.length !== 3)
        failures++;
      if (run >= WARMUP_RUNS) durations.push(elapsed);
    }
    durations.sort((a, b) => a - b);
    const at = (p: number) =>
      durations[Math.min(durations.length - 1, Math.floor((durations.length * p) / 100))] ?? 0;
    const value = Number(at(50).toFixed(1));
    return {
      name: `MTA-STS check of ${domain} (3 MX hosts), lab DNS with ${LATENCY_MS} ms latency`,
      runs: RUNS,
      latencyMs: LATENCY_MS,
      mxHosts: 3,
      value,
      unit: 'ms',
      target: TARGET_MS,
      met: failures === 0 && value < TARGET_MS,
      p90Ms: Number(at(90).toFixed(1)),
      maxMs: Number((durations.at(-1) ?? 0).toFixed(1)),
      failures,
    };
  } finally {
    await dns.close();
    await lab.close();
    await web.close();
  }
}

export function describeMtaStsCheckBench(result: MtaStsCheckBenchResult): string {
  return (
    `MTA-STS check: ${result.mxHosts} MX hosts (${result.latencyMs} ms DNS latency) in ${result.value} ms median ` +
    `(p90 ${result.p90Ms} ms, max ${result.maxMs} ms, ${result.failures} failed; target < ${result.target} ms)`
  );
}

if (import.meta.main) {
  const result = await mtaStsCheckBench();
  console.log(describeMtaStsCheckBench(result));
  if (!result.met) process.exitCode = 1;
}
