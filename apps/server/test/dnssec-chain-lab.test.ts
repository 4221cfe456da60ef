// Our chain builder on the DNSSEC lab: zones signed by dnssec-signzone (or the lab's recordings of
// it), asked through the server's DNS client with node:crypto verifying. Each case reaches the
// verdict delv reaches on the same lab (dnssec-lab.test.ts holds delv to it), with our reason.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildChain,
  dnssecChainSchema,
  nameToWire,
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
    // the DS set lives in and is signed by the parent
    expect(chain.answer.zone).toBe(names.tld);
    expect(chain.trustAnchors.origin).toBe('configured');
    expect(chain.answer.records).toHaveLength(1);
    expect(chain.answer.signatures.map((s) => s.outcome)).toContain('valid');
  });

  it("checks a zone's own DNSKEY signatures behind a wrong DS and shows the digest its key has", async () => {
    const chain = await buildChain(names.wrongDs, 'A', {
      resolver: client.session(),
      crypto: nodeCrypto,
      trustAnchors,
    });
    expect(chain.status).toBe('bogus');
    const zone = chain.zones.find((z) => z.zone === names.wrongDs);
    expect(zone?.status).toBe('bogus');
    expect(zone?.keySetSignatures.length).toBeGreaterThan(0);
    expect(zone?.keySetSignatures.every((s) => s.outcome === 'valid')).toBe(true);
    const ds = zone?.ds.find((d) => d.status === 'wrong-digest');
    const key = zone?.keys.find((k) => k.keyTag === ds?.keyTag && k.algorithm === ds?.algorithm);
    if (ds === undefined || key === undefined) throw new Error('no wrong-digest DS with its key');
    // RFC 4034 §5.1.4: SHA-256 over the owner in wire form and the DNSKEY RDATA
    const [flags, protocol, algorithm, ...base64] = key.record.split(/\s+/).slice(4);
    const rdata = Buffer.concat([
      Buffer.from([Number(flags) >> 8, Number(flags) & 0xff, Number(protocol), Number(algorithm)]),
      Buffer.from(base64.join(''), 'base64'),
    ]);
    const digest = createHash(ds.digestType === 1 ? 'sha1' : ds.digestType === 2 ? 'sha256' : 'sha384')
      .update(Buffer.concat([Buffer.from(nameToWire(names.wrongDs)), rdata]))
      .digest('hex')
      .toUpperCase();
    expect(ds.expectedDigest).toBe(digest);
    expect(ds.expectedDigest).not.toBe(ds.digest);
    expect(chain.answer.zone).toBeNull();
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
