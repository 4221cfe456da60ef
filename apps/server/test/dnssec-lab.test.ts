// The DNSSEC lab checked by a validator that is not ours: BIND's delv, asking the lab DNS server
// and validating from the lab root's trust anchor, must reach the verdict each case stands for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDnssecLab,
  dnssecLabNames as names,
  recordedDnssecLab,
  startDnsServer,
  type DnssecLab,
  type LabDnsServer,
} from '@rfckit/testlab';
import { delvInstalled, runDelv } from './helpers/delv.ts';

const DELV_TEST_MS = 30_000;

type Expected = 'validated' | 'negative' | 'unsigned' | 'failed';
const cases: [name: string, type: string, expected: Expected][] = [
  [names.secure, 'A', 'validated'],
  [`www.${names.secure}`, 'AAAA', 'validated'],
  [`alias.${names.secure}`, 'A', 'validated'],
  [`missing.${names.secure}`, 'A', 'negative'],
  [`www.${names.secure}`, 'TXT', 'negative'],
  [`www.${names.nsec3}`, 'A', 'validated'],
  [`missing.${names.nsec3}`, 'A', 'negative'],
  [`www.${names.nsec3}`, 'MX', 'negative'],
  [names.rsa, 'MX', 'validated'],
  [names.wildcard, 'A', 'validated'],
  [names.wildcard, 'TXT', 'validated'],
  [names.wildcard, 'MX', 'negative'],
  [`www.${names.optout}`, 'A', 'validated'],
  [`missing.${names.optout}`, 'A', 'negative'],
  [names.unsigned, 'A', 'unsigned'],
  [`www.${names.optoutChild}`, 'A', 'unsigned'],
  [names.expired, 'A', 'failed'],
  [names.wrongDs, 'A', 'failed'],
  [names.missingKey, 'A', 'failed'],
  [names.stripped, 'A', 'failed'],
];

async function verdict(server: LabDnsServer, lab: DnssecLab, name: string, type: string): Promise<Expected> {
  const result = await runDelv({ server, name, type, anchorFile: lab.trustAnchorFile });
  if (result.status === 'validated') return result.negative ? 'negative' : 'validated';
  if (result.status === 'failed') {
    // a broken chain, not a lab server that did not answer
    expect(result.reason, result.output).toMatch(/broken trust chain|insecurity proof failed|no valid/);
  }
  return result.status;
}

describe.skipIf(!delvInstalled)('delv on the DNSSEC lab', () => {
  let lab: DnssecLab;
  let dns: LabDnsServer;

  beforeAll(async () => {
    lab = await buildDnssecLab();
    dns = await startDnsServer({ zones: {}, signedZones: lab.zones });
  }, 60_000);
  afterAll(() => dns?.close());

  it.each(cases)(
    '%s %s: %s',
    async (name, type, expected) => {
      expect(await verdict(dns, lab, name, type)).toBe(expected);
    },
    DELV_TEST_MS,
  );
});

describe.skipIf(!delvInstalled)('delv on the recorded DNSSEC lab', () => {
  let lab: DnssecLab;
  let dns: LabDnsServer;

  beforeAll(async () => {
    lab = await recordedDnssecLab();
    dns = await startDnsServer({ zones: {}, signedZones: lab.zones });
  });
  afterAll(() => dns?.close());

  it.each(
    cases.filter(([name]) => name === names.secure || name === names.wildcard || name === names.expired),
  )(
    '%s %s: %s',
    async (name, type, expected) => {
      expect(await verdict(dns, lab, name, type)).toBe(expected);
    },
    DELV_TEST_MS,
  );
});
