// Reads the OpenSPF RFC 7208 test suite (shared/conformance/spf/rfc7208-tests.yml, BSD licence,
// kept outside the repo) into fixture zones and test cases, following the harness rules of the
// suite's README: SPF entries are served as TXT unless the name has TXT entries of its own,
// `TXT: NONE` stops that copy, a bare TIMEOUT times out every type that no entry before it
// answers, and names not listed do not exist. Used by the conformance suite and the bench.
import { parseAllDocuments } from 'yaml';
import {
  checkHost,
  createFixtureResolver,
  dnsRecordTypes,
  type CheckHostResult,
  type FixtureName,
  type FixtureZones,
  type Resolver,
  type SpfResult,
} from '@rfckit/standards';

export interface SpfSuiteTest {
  scenario: string;
  name: string;
  description?: string;
  spec?: string;
  helo: string;
  host: string;
  mailfrom: string;
  /** Any of these passes the test. */
  results: SpfResult[];
  /** The exp= text expected when the result is fail; "DEFAULT" means no exp= text. */
  explanation?: string;
}

export interface SpfSuiteScenario {
  description: string;
  tests: SpfSuiteTest[];
  zones: FixtureZones;
}

type ZoneEntry = string | Record<string, unknown>;

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new Error(`unexpected zone value ${JSON.stringify(value)}`);
}

function txtValue(value: unknown): string | string[] {
  return Array.isArray(value) ? value.map(asText) : asText(value);
}

/** One name's entries (`- A: 1.2.3.4`, `- TIMEOUT` …) as a fixture. */
export function zoneFixture(entries: readonly ZoneEntry[]): FixtureName {
  const hasTxt = entries.some((e) => typeof e === 'object' && 'TXT' in e);
  const A: string[] = [];
  const AAAA: string[] = [];
  const PTR: string[] = [];
  const TXT: (string | string[])[] = [];
  const MX: { preference: number; exchange: string }[] = [];
  let CNAME: string | undefined;
  const answered = new Set<string>();
  let timeout: string[] | undefined;
  for (const entry of entries) {
    if (entry === 'TIMEOUT') {
      // pyspf stops reading the name here: types with an entry before it are answered
      timeout = dnsRecordTypes.filter((type) => !answered.has(type));
      break;
    }
    if (typeof entry !== 'object') throw new Error(`unexpected zone entry ${JSON.stringify(entry)}`);
    for (const [type, value] of Object.entries(entry)) {
      switch (type) {
        case 'SPF':
          // RFC 7208 §3.1 retired the SPF RR type; the harness serves it as TXT
          if (!hasTxt) {
            TXT.push(txtValue(value));
            answered.add('TXT');
          }
          break;
        case 'TXT':
          if (value === 'NONE') break;
          TXT.push(txtValue(value));
          answered.add('TXT');
          break;
        case 'A':
          A.push(asText(value));
          answered.add(type);
          break;
        case 'AAAA':
          AAAA.push(asText(value));
          answered.add(type);
          break;
        case 'PTR':
          PTR.push(asText(value));
          answered.add(type);
          break;
        case 'CNAME':
          CNAME = asText(value);
          answered.add(type);
          break;
        case 'MX': {
          const [preference, exchange] = value as [number, string];
          MX.push({ preference, exchange: exchange === '' ? '.' : exchange });
          answered.add(type);
          break;
        }
        default:
          throw new Error(`unexpected record type ${type}`);
      }
    }
  }
  const fixture: FixtureName = {};
  if (A.length > 0) fixture.A = A;
  if (AAAA.length > 0) fixture.AAAA = AAAA;
  if (PTR.length > 0) fixture.PTR = PTR;
  if (TXT.length > 0) fixture.TXT = TXT;
  if (MX.length > 0) fixture.MX = MX;
  if (CNAME !== undefined) fixture.CNAME = CNAME;
  if (timeout !== undefined) fixture.timeout = timeout;
  return fixture;
}

interface RawTest {
  description?: string;
  spec?: string | string[];
  helo: string;
  host: string;
  mailfrom: string;
  result: string | string[];
  explanation?: string;
}

/** Reads the suite's YAML documents: one scenario each. */
export function readSpfSuite(yamlText: string): SpfSuiteScenario[] {
  return parseAllDocuments(yamlText).map((document) => {
    const doc = document.toJS() as {
      description: string;
      tests: Record<string, RawTest>;
      zonedata?: Record<string, ZoneEntry[]>;
    };
    const zones: FixtureZones = {};
    for (const [name, entries] of Object.entries(doc.zonedata ?? {})) zones[name] = zoneFixture(entries);
    const tests = Object.entries(doc.tests).map(([name, t]): SpfSuiteTest => {
      const test: SpfSuiteTest = {
        scenario: doc.description,
        name,
        helo: String(t.helo),
        host: String(t.host),
        mailfrom: String(t.mailfrom),
        results: (Array.isArray(t.result) ? t.result : [t.result]) as SpfResult[],
      };
      if (t.description !== undefined) test.description = t.description.trim();
      if (t.spec !== undefined) test.spec = Array.isArray(t.spec) ? t.spec.join(', ') : String(t.spec);
      if (t.explanation !== undefined) test.explanation = t.explanation;
      return test;
    });
    return { description: doc.description, tests, zones };
  });
}

/** A resolver over one scenario's zone data, with the suite's rule that unlisted names do not exist. */
export function scenarioResolver(scenario: SpfSuiteScenario): Resolver {
  return createFixtureResolver(scenario.zones, { emptyNonTerminals: false });
}

export function runSpfTest(test: SpfSuiteTest, resolver: Resolver): Promise<CheckHostResult> {
  return checkHost({ ip: test.host, sender: test.mailfrom, helo: test.helo }, { resolver });
}

/**
 * Explanations compared without regard to case, with the reason. RFC 7208 §7.4 writes the
 * nibbles of `%{ir}` for IPv6 in lower case (as we do); the suite's expected text, written for
 * pyspf, has them in upper case. DNS names are case-insensitive, so the texts name the same thing.
 */
export const caseInsensitiveExplanations: Readonly<Record<string, string>> = {
  'v-macro-ip6': 'RFC 7208 §7.4 writes IPv6 nibbles in lower case; the suite expects upper case',
};

/** Why a result does not meet the test, or undefined when it does. */
export function spfTestFailure(test: SpfSuiteTest, actual: CheckHostResult): string | undefined {
  if (!test.results.includes(actual.result)) {
    return `expected ${test.results.join(' or ')}, got ${actual.result} (${actual.reason})`;
  }
  if (test.explanation === undefined || actual.result !== 'fail') return undefined;
  if (test.explanation === 'DEFAULT') {
    return actual.explanation === undefined
      ? undefined
      : `expected no exp= explanation, got ${JSON.stringify(actual.explanation)}`;
  }
  const expected = test.explanation;
  const got = actual.explanation ?? '';
  const same =
    test.name in caseInsensitiveExplanations
      ? got.toLowerCase() === expected.toLowerCase()
      : got === expected;
  return same ? undefined : `expected explanation ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`;
}
