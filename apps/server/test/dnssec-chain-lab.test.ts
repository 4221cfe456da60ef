// Our chain builder on the DNSSEC lab: zones signed by dnssec-signzone (or the lab's recordings of
// it), asked through the server's DNS client with node:crypto verifying. Each case reaches the
// verdict delv reaches on the same lab (dnssec-lab.test.ts holds delv to it), with our reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildChain,
  dnssecChainSchema,
  parseTrustAnchors,
  type ChainFailureCode,
  type DnsRecordType,
  type SecurityStatus,
  type TrustAnchors,
} from '@rfckit/standards';
import { buildDnssecLab, dnssecLabNames as names, startDnsServer, type LabDnsServer } from '@rfckit/testlab';
import { nodeCrypto } from '../src/crypto/node-crypto.ts';
import { createDnsClient, type DnsClient } from '../src/net/dns.ts';

type Answer = 'ok' | 'nxdomain' | 'nodata' | 'failed';
const cases: [
  name: string,
  type: DnsRecordType,
  status: SecurityStatus,
  answer: Answer,
  code?: ChainFailureCode,
][] = [
  [names.secure, 'A', 'secure', 'ok'],
  [`www.${names.secure}`, 'AAAA', 'secure', 'ok'],
  [`alias.${names.secure}`, 'A', 'secure', 'ok'],
  [`missing.${names.secure}`, 'A', 'secure', 'nxdomain'],
  [`www.${names.secure}`, 'TXT', 'secure', 'nodata'],
  [`www.${names.nsec3}`, 'A', 'secure', 'ok'],
  [`missing.${names.nsec3}`, 'A', 'secure', 'nxdomain'],
  [`www.${names.nsec3}`, 'MX', 'secure', 'nodata'],
  [names.rsa, 'MX', 'secure', 'ok'],
  [names.wildcard, 'A', 'secure', 'ok'],
  [names.wildcard, 'MX', 'secure', 'nodata'],
  [`www.${names.optout}`, 'A', 'secure', 'ok'],
  [`missing.${names.optout}`, 'A', 'secure', 'nxdomain'],
  [names.unsigned, 'A', 'insecure', 'ok'],
  [`www.${names.optoutChild}`, 'A', 'insecure', 'ok'],
  [names.expired, 'A', 'bogus', 'failed', 'expired-signature'],
  [names.wrongDs, 'A', 'bogus', 'failed', 'wrong-digest'],
  [names.missingKey, 'A', 'bogus', 'failed', 'no-matching-ds'],
  [names.stripped, 'A', 'bogus', 'failed', 'missing-signature'],
  // a DS set is the parent's data, signed by test.: a broken child zone leaves it secure, as delv says
  [names.wrongDs, 'DS', 'secure', 'ok'],
  [names.expired, 'DS', 'secure', 'ok'],
  [names.missingKey, 'DS', 'secure', 'ok'],
  [names.stripped, 'DS', 'secure', 'ok'],
  [names.unsigned, 'DS', 'secure', 'nodata'],
];

describe('buildChain on the DNSSEC lab', () => {
  let dns: LabDnsServer;
  let client: DnsClient;
  let trustAnchors: TrustAnchors;

  beforeAll(async () => {
    const lab = await buildDnssecLab();
    const anchors = parseTrustAnchors(lab.trustAnchors, 'lab root');
    if (!anchors.ok) throw new Error(anchors.error);
    trustAnchors = anchors.result;
    dns = await startDnsServer({ zones: {}, signedZones: lab.zones });
    client = createDnsClient({ servers: [dns.address] });
  }, 60_000);
  afterAll(() => dns?.close());

  it.each(cases)('%s %s is %s (%s)', async (name, type, status, answer, code) => {
    const chain = await buildChain(name, type, {
      resolver: client.session(),
      crypto: nodeCrypto,
      trustAnchors,
    });
    expect(dnssecChainSchema.parse(chain)).toEqual(chain);
    expect(chain.status, JSON.stringify(chain.failure)).toBe(status);
    expect(chain.answer.status).toBe(answer);
    expect(chain.failure?.code).toBe(code);
    if (status === 'secure') expect(chain.zones.every((z) => z.status === 'secure')).toBe(true);
  });

  it("checks every signature over a DNSKEY set, the ZSK's beside the KSK's, with the zone's own keys", async () => {
    const chain = await buildChain(`www.${names.secure}`, 'A', {
      resolver: client.session(),
      crypto: nodeCrypto,
      trustAnchors,
    });
    for (const zone of chain.zones) {
      expect(zone.keySetSignatures.length, zone.zone).toBeGreaterThan(0);
      expect(zone.keySetSignatures.map((s) => `${zone.zone} ${s.keyTag} ${s.outcome}`)).toEqual(
        zone.keySetSignatures.map((s) => `${zone.zone} ${s.keyTag} valid`),
      );
    }
  });

  it('shows a DS set in the parent zone that signs it, without descending into the broken child', async () => {
    const chain = await buildChain(names.wrongDs, 'DS', {
      resolver: client.session(),
      crypto: nodeCrypto,
      trustAnchors,
    });
    expect(chain.zones.map((z) => `${z.zone} ${z.status}`)).toEqual(['. secure', 'test secure']);
    expect(chain.answer.records).toHaveLength(1);
    expect(chain.answer.signatures.map((s) => s.outcome)).toContain('valid');
  });

  it('shows the wildcard a lab answer was expanded from', async () => {
    const chain = await buildChain(names.wildcard, 'A', {
      resolver: client.session(),
      crypto: nodeCrypto,
      trustAnchors,
    });
    expect(chain.answer.wildcard).toBe(`*.wild.${names.rsa}`);
    expect(chain.answer.denial).toMatchObject({ proves: 'no-closer-match', proven: true });
  });

  it('marks the opt-out delegation insecure with its NSEC3 proof', async () => {
    const chain = await buildChain(`www.${names.optoutChild}`, 'A', {
      resolver: client.session(),
      crypto: nodeCrypto,
      trustAnchors,
    });
    const child = chain.zones.find((z) => z.zone === names.optoutChild);
    expect(child).toMatchObject({
      status: 'insecure',
      dsDenial: { method: 'NSEC3', optOut: true, proven: true },
    });
  });
});
