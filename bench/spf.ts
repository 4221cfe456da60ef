// Benchmark (not a test): the whole RFC 7208 test suite (203 tests) evaluated in-process by
// check_host() over the fixture resolver, again and again; tests per second. The suite is read
// from CONFORMANCE_DIR (default ../shared/conformance), as the conformance runner does.
// Run alone with `node bench/spf.ts`; `bench/run.ts` runs it with the rest.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Resolver } from '@rfckit/standards';
import {
  readSpfSuite,
  runSpfTest,
  scenarioResolver,
  spfTestFailure,
  type SpfSuiteTest,
} from '../conformance/spf-suite.ts';

const SECONDS = Number(process.env.BENCH_SPF_SECONDS ?? 5);
const WARMUP_ROUNDS = 20;

export interface SpfBenchResult {
  name: string;
  tests: number;
  rounds: number;
  /** Tests evaluated per second. */
  value: number;
  unit: 'tests/s';
  /** Whole suite runs per second. */
  suitesPerSecond: number;
  /** Mean time of one check_host(), microseconds. */
  meanMicroseconds: number;
  /** Tests whose result did not meet the suite (must be 0). */
  failures: number;
}

export async function spfBench(): Promise<SpfBenchResult> {
  const conformanceDir = path.resolve(
    import.meta.dirname,
    '..',
    process.env.CONFORMANCE_DIR ?? '../shared/conformance',
  );
  const scenarios = readSpfSuite(readFileSync(path.join(conformanceDir, 'spf', 'rfc7208-tests.yml'), 'utf8'));
  // one resolver per scenario, built once: the evaluator is what is measured
  const cases: { test: SpfSuiteTest; resolver: Resolver }[] = scenarios.flatMap((scenario) => {
    const resolver = scenarioResolver(scenario);
    return scenario.tests.map((test) => ({ test, resolver }));
  });

  let failures = 0;
  const round = async (count: boolean) => {
    for (const { test, resolver } of cases) {
      const outcome = await runSpfTest(test, resolver);
      if (count && spfTestFailure(test, outcome) !== undefined) failures++;
    }
  };
  for (let i = 0; i < WARMUP_ROUNDS; i++) await round(false);

  let rounds = 0;
  const start = performance.now();
  const until = start + SECONDS * 1000;
  do {
    await round(true);
    rounds++;
  } while (performance.now() < until);
  const elapsed = performance.now() - start;
  const tests = cases.length * rounds;
  return {
    name: `RFC 7208 suite (${cases.length} tests) through check_host() with the fixture resolver`,
    tests: cases.length,
    rounds,
    value: Math.round((tests / elapsed) * 1000),
    unit: 'tests/s',
    suitesPerSecond: Number(((rounds / elapsed) * 1000).toFixed(1)),
    meanMicroseconds: Number(((elapsed * 1000) / tests).toFixed(1)),
    failures,
  };
}

export function describeSpfBench(result: SpfBenchResult): string {
  return (
    `SPF: ${result.value} tests/s over ${result.rounds} runs of the ${result.tests}-test RFC 7208 suite ` +
    `(${result.suitesPerSecond} suites/s, ${result.meanMicroseconds} µs per check, ${result.failures} failed)`
  );
}

if (import.meta.main) {
  const result = await spfBench();
  console.log(describeSpfBench(result));
  if (result.failures > 0) process.exitCode = 1;
}
