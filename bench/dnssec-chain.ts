// Benchmark (not a test): buildChain() for www.secure.test A — the lab root, test. and
// secure.test, signed by dnssec-signzone (or the lab's recordings of it) — through the server's DNS
// client against the lab DNS server holding every answer back 20 ms. The chain builder sends the
// DS and DNSKEY queries of every level and the answer's query at once, so the walk costs about one
// round trip rather than one per level. Then RRSIG verifications per second with node:crypto
// (ECDSA P-256, the lab's algorithm). Loopback only. Run alone with `node bench/dnssec-chain.ts`;
// `bench/run.ts` runs it with the rest.
import {
  buildChain,
  parseTrustAnchors,
  verifyRrset,
  type DnsRecord,
  type DnsRrsigRecord,
} from '@rfckit/standards';
import { buildDnssecLab, startDnsServer } from '@rfckit/testlab';
import { nodeCrypto } from '../apps/server/src/crypto/node-crypto.ts';
import { createDnsClient } from '../apps/server/src/net/dns.ts';

const RUNS = Number(process.env.BENCH_DNSSEC_RUNS ?? 20);
const WARMUP_RUNS = 3;
const LATENCY_MS = 20;
const TARGET_MS = 300;
const VERIFY_SECONDS = Number(process.env.BENCH_DNSSEC_VERIFY_SECONDS ?? 3);
const NAME = 'www.secure.test';

export interface DnssecChainBenchResult {
  name: string;
  runs: number;
  latencyMs: number;
  /** Median wall time of one buildChain, milliseconds. */
  value: number;
  unit: 'ms';
  target: number;
  met: boolean;
  p90Ms: number;
  maxMs: number;
  queriesPerChain: number;
  /** Runs whose result was not a secure chain of three zones. */
  failures: number;
  /** RRSIG verifications (verifyRrset of one signed A set) per second on one thread. */
  verificationsPerSecond: number;
  zones: 'signed' | 'recorded';
}

export async function dnssecChainBench(): Promise<DnssecChainBenchResult> {
  const lab = await buildDnssecLab();
  const anchors = parseTrustAnchors(lab.trustAnchors, 'lab root');
  if (!anchors.ok) throw new Error(`lab trust anchors: ${anchors.error}`);
  const trustAnchors = anchors.result;
  const names = ['.', 'test', 'secure.test', NAME];
  const dns = await startDnsServer({
    zones: {},
    signedZones: lab.zones,
    switches: Object.fromEntries(names.map((n) => [n, { latencyMs: LATENCY_MS }])),
  });
  try {
    const client = createDnsClient({ servers: [dns.address] });
    const durations: number[] = [];
    let failures = 0;
    let queriesPerChain = 0;
    let answer: { records: DnsRecord[]; signatures: DnsRrsigRecord[] } | undefined;
    for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
      // a fresh session per chain, as the route makes one per request: no answer is cached
      const resolver = client.session();
      const began = performance.now();
      const chain = await buildChain(NAME, 'A', { resolver, crypto: nodeCrypto, trustAnchors });
      const elapsed = performance.now() - began;
      if (chain.status !== 'secure' || chain.zones.length !== 3) failures++;
      if (run < WARMUP_RUNS) continue;
      durations.push(elapsed);
      queriesPerChain = chain.queries;
    }
    const direct = await client.session().query(NAME, 'A', { dnssec: true });
    if (direct.status === 'ok') answer = { records: direct.records, signatures: direct.signatures };
    durations.sort((a, b) => a - b);
    const at = (p: number) =>
      durations[Math.min(durations.length - 1, Math.floor((durations.length * p) / 100))] ?? 0;
    const value = Number(at(50).toFixed(1));
    const verificationsPerSecond = answer ? await verifications(answer) : 0;
    return {
      name: `buildChain of ${NAME} A (root, test, secure.test), lab DNS with ${LATENCY_MS} ms latency`,
      runs: RUNS,
      latencyMs: LATENCY_MS,
      value,
      unit: 'ms',
      target: TARGET_MS,
      met: failures === 0 && value < TARGET_MS,
      p90Ms: Number(at(90).toFixed(1)),
      maxMs: Number((durations.at(-1) ?? 0).toFixed(1)),
      queriesPerChain,
      failures,
      verificationsPerSecond,
      zones: lab.source,
    };
  } finally {
    await dns.close();
  }

  /** verifyRrset of the answer with secure.test's keys, repeated for VERIFY_SECONDS. */
  async function verifications(set: { records: DnsRecord[]; signatures: DnsRrsigRecord[] }): Promise<number> {
    const keys = await createDnsClient({ servers: [dns.address] })
      .session()
      .query('secure.test', 'DNSKEY', { dnssec: true });
    if (keys.status !== 'ok') return 0;
    const signatures = set.signatures;
    const options = { zone: 'secure.test', now: Math.floor(Date.now() / 1000), crypto: nodeCrypto };
    for (let i = 0; i < 100; i++) await verifyRrset(set.records, signatures, keys.records, options);
    let count = 0;
    const began = performance.now();
    while (performance.now() - began < VERIFY_SECONDS * 1000) {
      const result = await verifyRrset(set.records, signatures, keys.records, options);
      if (!result.valid) throw new Error('the lab answer no longer verifies');
      count += result.checks.length;
    }
    return Math.round(count / ((performance.now() - began) / 1000));
  }
}

export function describeDnssecChainBench(result: DnssecChainBenchResult): string {
  return (
    `DNSSEC chain: 3 levels (${result.latencyMs} ms DNS latency, ${result.zones} zones) in ${result.value} ms median ` +
    `(p90 ${result.p90Ms} ms, max ${result.maxMs} ms, ${result.queriesPerChain} queries, ${result.failures} failed; ` +
    `target < ${result.target} ms); ${result.verificationsPerSecond.toLocaleString('en')} RRSIG verifications/s`
  );
}

if (import.meta.main) {
  const result = await dnssecChainBench();
  console.log(describeDnssecChainBench(result));
  if (!result.met) process.exitCode = 1;
}
