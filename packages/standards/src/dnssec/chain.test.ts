import { beforeAll, describe, expect, it } from 'vitest';
import { UnsupportedSchemeError, webCryptoProvider, type CryptoProvider } from '../core/crypto.ts';
import { createFixtureResolver, type FixtureName, type FixtureZones } from '../core/fixture-resolver.ts';
import type { DnsDsRecord, DnsRecord, DnsRecordType } from '../core/resolver.ts';
import type { TrustAnchors } from './anchors.ts';
import { buildChain } from './chain.ts';
import { dnssecChainSchema, type DnssecChain } from './schema.ts';
import {
  dsOf,
  fixtureZonesOf,
  generateKey,
  signZone,
  withRdata,
  type SignatureWindow,
  type SigningKey,
  type ZoneSpec,
} from './testing/sign-zone.ts';

const NOW = 1_780_000_000;
const DAY = 86_400;
const good: SignatureWindow = { inception: NOW - DAY, expiration: NOW + 30 * DAY };
const crypto = webCryptoProvider() as CryptoProvider;

function soa(zone: string): DnsRecord {
  const apex = zone === '' ? '' : `.${zone}`;
  return {
    name: zone,
    ttl: 3600,
    type: 'SOA',
    mname: `ns${apex}`.replace(/^\./, ''),
    rname: `hostmaster${apex}`,
    serial: 1,
    refresh: 3600,
    retry: 600,
    expire: 86400,
    minimum: 300,
  };
}

function ns(owner: string, target: string): DnsRecord {
  return { name: owner, ttl: 3600, type: 'NS', target };
}

function a(owner: string, address: string): DnsRecord {
  return { name: owner, ttl: 300, type: 'A', address };
}

function cname(owner: string, target: string): DnsRecord {
  return { name: owner, ttl: 300, type: 'CNAME', target };
}

interface Keys {
  rootKsk: SigningKey;
  rootZsk: SigningKey;
  testKsk: SigningKey;
  testZsk: SigningKey;
  exampleKsk: SigningKey;
  exampleZsk: SigningKey;
  exampleEd: SigningKey;
  strayKsk: SigningKey;
  nsec3Key: SigningKey;
}

let keys: Keys;
let anchors: TrustAnchors;

beforeAll(async () => {
  keys = {
    rootKsk: await generateKey('', 13, 'KSK'),
    rootZsk: await generateKey('', 13, 'ZSK'),
    testKsk: await generateKey('test', 15, 'KSK'),
    testZsk: await generateKey('test', 15, 'ZSK'),
    exampleKsk: await generateKey('example.test', 13, 'KSK'),
    exampleZsk: await generateKey('example.test', 13, 'ZSK'),
    exampleEd: await generateKey('example.test', 15, 'KSK'),
    strayKsk: await generateKey('example.test', 13, 'KSK'),
    nsec3Key: await generateKey('nsec3.test', 13, 'KSK'),
  };
  anchors = { source: 'test root', ds: [await dsOf(keys.rootKsk, crypto)], dnskey: [] };
});

interface Variant {
  /** The DS set for example.test in test. */
  exampleDs?: () => Promise<DnsDsRecord[]>;
  example?: Partial<ZoneSpec>;
  /** Changes the signed example.test records. */
  tamper?: (records: DnsRecord[]) => DnsRecord[];
  nsec3?: { iterations: number; salt: string };
  /** Switches per owner (timeout, servfail, latency). */
  switches?: Record<string, Partial<FixtureName>>;
}

const exampleRecords: DnsRecord[] = [
  soa('example.test'),
  ns('example.test', 'ns.example.test'),
  a('ns.example.test', '192.0.2.53'),
  a('www.example.test', '192.0.2.80'),
  a('wild.example.test', '192.0.2.81'),
  a('*.wild.example.test', '192.0.2.82'),
  cname('alias.example.test', 'www.nsec3.test'),
  cname('loop1.example.test', 'loop2.example.test'),
  cname('loop2.example.test', 'loop1.example.test'),
  ...Array.from({ length: 10 }, (_, i) =>
    i < 9 ? cname(`c${i}.example.test`, `c${i + 1}.example.test`) : a('c9.example.test', '192.0.2.99'),
  ),
];

async function hierarchy(variant: Variant = {}): Promise<FixtureZones> {
  const exampleDs = variant.exampleDs ? await variant.exampleDs() : [await dsOf(keys.exampleKsk, crypto)];
  const root = await signZone(
    {
      zone: '',
      records: [soa(''), ns('', 'ns.test'), ns('test', 'ns.test'), await dsOf(keys.testKsk, crypto)],
      ksks: [keys.rootKsk],
      zsks: [keys.rootZsk],
      window: good,
    },
    crypto,
  );
  const test = await signZone(
    {
      zone: 'test',
      records: [
        soa('test'),
        ns('test', 'ns.test'),
        a('ns.test', '192.0.2.1'),
        ns('example.test', 'ns.example.test'),
        ...exampleDs,
        ns('insecure.test', 'ns.insecure.test'),
        ns('nsec3.test', 'ns.nsec3.test'),
        await dsOf(keys.nsec3Key, crypto),
      ],
      ksks: [keys.testKsk],
      zsks: [keys.testZsk],
      window: good,
    },
    crypto,
  );
  const example = await signZone(
    {
      zone: 'example.test',
      records: exampleRecords,
      ksks: [keys.exampleKsk],
      zsks: [keys.exampleZsk],
      window: good,
      ...variant.example,
    },
    crypto,
  );
  const nsec3 = await signZone(
    {
      zone: 'nsec3.test',
      records: [
        soa('nsec3.test'),
        ns('nsec3.test', 'ns.nsec3.test'),
        a('www.nsec3.test', '192.0.2.33'),
        ns('unsigned.nsec3.test', 'ns.unsigned.nsec3.test'),
      ],
      ksks: [keys.nsec3Key],
      zsks: [keys.nsec3Key],
      window: good,
      denial: { nsec3: { iterations: 0, salt: '', optOut: true, ...variant.nsec3 } },
    },
    crypto,
  );
  const unsigned = [
    soa('insecure.test'),
    ns('insecure.test', 'ns.insecure.test'),
    a('www.insecure.test', '192.0.2.44'),
    soa('unsigned.nsec3.test'),
    a('www.unsigned.nsec3.test', '192.0.2.45'),
  ].map(withRdata);
  const zones = fixtureZonesOf([
    ...root,
    ...test,
    ...(variant.tamper ? variant.tamper(example) : example),
    ...nsec3,
    ...unsigned,
  ]);
  for (const [owner, switches] of Object.entries(variant.switches ?? {}))
    zones[owner] = { ...zones[owner], ...switches };
  return zones;
}

async function chainOf(name: string, type: DnsRecordType, variant: Variant = {}): Promise<DnssecChain> {
  const resolver = createFixtureResolver(await hierarchy(variant));
  const chain = await buildChain(name, type, { resolver, crypto, trustAnchors: anchors, now: NOW });
  // every result has the shape the route promises
  expect(dnssecChainSchema.parse(chain)).toEqual(chain);
  return chain;
}

function codes(chain: DnssecChain): string[] {
  return chain.warnings.map((w) => w.code);
}

describe('buildChain: secure answers', () => {
  it('validates www.example.test A from the root through test and example.test', async () => {
    const chain = await chainOf('www.example.test', 'A');
    expect(chain.status).toBe('secure');
    expect(chain.failure).toBeNull();
    expect(chain.zones.map((z) => [z.zone, z.status])).toEqual([
      ['.', 'secure'],
      ['test', 'secure'],
      ['example.test', 'secure'],
    ]);
    const [root, tld, example] = chain.zones;
    expect(root?.ds.map((d) => [d.keyTag, d.status, d.source])).toEqual([
      [keys.rootKsk.keyTag, 'match', 'trust-anchor'],
    ]);
    expect(tld?.ds.map((d) => [d.keyTag, d.status, d.source])).toEqual([
      [keys.testKsk.keyTag, 'match', 'parent'],
    ]);
    expect(tld?.dsSignatures.map((s) => [s.keyTag, s.outcome])).toEqual([[keys.rootZsk.keyTag, 'valid']]);
    const ksk = example?.keys.find((k) => k.keyTag === keys.exampleKsk.keyTag);
    const zsk = example?.keys.find((k) => k.keyTag === keys.exampleZsk.keyTag);
    expect(ksk).toMatchObject({
      role: 'KSK',
      matchedByDs: true,
      signsKeySet: true,
      algorithmName: 'ECDSAP256SHA256',
    });
    expect(zsk).toMatchObject({ role: 'ZSK', matchedByDs: false, signsKeySet: false });
    expect(zsk?.signs).toEqual(expect.arrayContaining(['A', 'NSEC']));
    expect(chain.answer).toMatchObject({
      owner: 'www.example.test',
      status: 'ok',
      security: 'secure',
      wildcard: null,
      denial: null,
    });
    expect(chain.answer.records).toHaveLength(1);
    expect(chain.answer.records[0]).toMatch(/^www\.example\.test\.\s+\d+\s+IN\s+A\s+192\.0\.2\.80$/);
    expect(chain.answer.signatures.map((s) => s.outcome)).toEqual(['valid']);
    expect(chain.trustAnchors).toEqual({
      source: 'test root',
      origin: 'configured',
      keyTags: [keys.rootKsk.keyTag],
    });
    expect(chain.checkedAt).toBe(new Date(NOW * 1000).toISOString());
    expect(chain.warnings).toEqual([]);
    // DS and DNSKEY of each of the three names below the root, the root's DNSKEY, the answer
    expect(chain.queries).toBe(8);
  });

  it('proves NXDOMAIN with NSEC', async () => {
    const chain = await chainOf('nope.example.test', 'A');
    expect(chain.status).toBe('secure');
    expect(chain.answer.status).toBe('nxdomain');
    expect(chain.answer.denial).toMatchObject({ method: 'NSEC', proves: 'nxdomain', proven: true });
  });

  it('proves NODATA with NSEC', async () => {
    const chain = await chainOf('www.example.test', 'TXT');
    expect(chain.status).toBe('secure');
    expect(chain.answer.status).toBe('nodata');
    expect(chain.answer.denial).toMatchObject({ method: 'NSEC', proves: 'nodata', proven: true });
  });

  it('checks a wildcard expansion with the proof that no closer name exists', async () => {
    const chain = await chainOf('host.wild.example.test', 'A');
    expect(chain.status).toBe('secure');
    expect(chain.answer.wildcard).toBe('*.wild.example.test');
    expect(chain.answer.denial).toMatchObject({ proves: 'no-closer-match', proven: true });
  });

  it('follows a CNAME into another zone and checks each record in its own zone', async () => {
    const chain = await chainOf('alias.example.test', 'A');
    expect(chain.status).toBe('secure');
    expect(chain.answer.owner).toBe('www.nsec3.test');
    expect(chain.answer.records.map((r) => r.split(/\s+/)[3])).toEqual(['CNAME', 'A']);
    expect(chain.answer.signatures.map((s) => [s.signer, s.outcome])).toEqual([
      ['example.test', 'valid'],
      ['nsec3.test', 'valid'],
    ]);
    expect(chain.zones.map((z) => z.zone)).toContain('nsec3.test');
  });

  it.each([
    ['.', 'DNSKEY', '.'],
    ['test', 'DS', 'test'],
    ['example.test', 'DNSKEY', 'example.test'],
  ] as const)('validates %s %s itself', async (name, type, owner) => {
    const chain = await chainOf(name, type);
    expect(chain.status).toBe('secure');
    expect(chain.answer).toMatchObject({ owner, status: 'ok', security: 'secure' });
  });

  it('accepts a root DNSKEY given as the trust anchor', async () => {
    const resolver = createFixtureResolver(await hierarchy());
    const chain = await buildChain('www.example.test', 'A', {
      resolver,
      crypto,
      trustAnchors: { source: 'key', ds: [], dnskey: [keys.rootKsk.record] },
      now: NOW,
    });
    expect(chain.status).toBe('secure');
    expect(chain.zones[0]?.keys.find((k) => k.keyTag === keys.rootKsk.keyTag)?.matchedByDs).toBe(true);
  });
});

describe('buildChain: insecure delegations', () => {
  it('stops at a delegation proven unsigned by NSEC', async () => {
    const chain = await chainOf('www.insecure.test', 'A');
    expect(chain.status).toBe('insecure');
    expect(chain.failure).toBeNull();
    const step = chain.zones.find((z) => z.zone === 'insecure.test');
    expect(step?.status).toBe('insecure');
    expect(step?.dsDenial).toMatchObject({ method: 'NSEC', proves: 'insecure-delegation', proven: true });
    expect(chain.answer).toMatchObject({ status: 'ok', security: 'insecure' });
    expect(chain.answer.records).toHaveLength(1);
  });

  it('stops at a delegation inside an NSEC3 opt-out span', async () => {
    const chain = await chainOf('www.unsigned.nsec3.test', 'A');
    expect(chain.status).toBe('insecure');
    const step = chain.zones.find((z) => z.zone === 'unsigned.nsec3.test');
    expect(step?.dsDenial).toMatchObject({ method: 'NSEC3', proven: true, optOut: true });
  });

  it('treats a zone whose DS algorithms are all unsupported as insecure (RFC 4035 §5.2)', async () => {
    const chain = await chainOf('www.example.test', 'A', {
      exampleDs: async () => [withRdata({ ...(await dsOf(keys.exampleKsk, crypto)), algorithm: 200 })],
    });
    expect(chain.status).toBe('insecure');
    expect(chain.zones.find((z) => z.zone === 'example.test')?.status).toBe('insecure');
    expect(codes(chain)).toContain('DNSSEC_UNSUPPORTED_ALGORITHM');
  });
});

describe("buildChain: a verifier without the zone's algorithm", () => {
  it('treats the zone as insecure, not bogus (RFC 4035 §5.2)', async () => {
    const resolver = createFixtureResolver(await hierarchy());
    // a runtime whose verifier lacks Ed25519, the algorithm of test
    const noEd25519: CryptoProvider = {
      digest: (algorithm, data) => crypto.digest(algorithm, data),
      verify: (scheme, spki, signature, data) => {
        if (scheme.name === 'Ed25519') throw new UnsupportedSchemeError(scheme.name);
        return crypto.verify?.(scheme, spki, signature, data) ?? false;
      },
    };
    const chain = await buildChain('www.example.test', 'A', {
      resolver,
      crypto: noEd25519,
      trustAnchors: anchors,
      now: NOW,
    });
    expect(chain.status).toBe('insecure');
    expect(chain.zones.map((z) => [z.zone, z.status])).toEqual([
      ['.', 'secure'],
      ['test', 'insecure'],
    ]);
    expect(codes(chain)).toContain('DNSSEC_UNSUPPORTED_ALGORITHM');
  });
});

describe('buildChain: bogus chains, each with its reason', () => {
  async function failureOf(name: string, variant: Variant, type: DnsRecordType = 'A') {
    const chain = await chainOf(name, type, variant);
    expect(chain.status).toBe('bogus');
    expect(chain.failure?.message).toBeTruthy();
    expect(chain.failure?.fix).toBeTruthy();
    return chain.failure;
  }

  it('expired signatures', async () => {
    const failure = await failureOf('www.example.test', {
      example: { window: { inception: NOW - 40 * DAY, expiration: NOW - DAY } },
    });
    expect(failure).toMatchObject({ code: 'expired-signature', zone: 'example.test' });
  });

  it('a DS whose digest does not match the key', async () => {
    const failure = await failureOf('www.example.test', {
      exampleDs: async () => {
        const ds = await dsOf(keys.exampleKsk, crypto);
        return [
          withRdata({ ...ds, digest: `${ds.digest.slice(0, -2)}${ds.digest.endsWith('00') ? '11' : '00'}` }),
        ];
      },
    });
    expect(failure).toMatchObject({ code: 'wrong-digest', zone: 'example.test' });
  });

  it('a DS for a key the zone does not publish', async () => {
    const failure = await failureOf('www.example.test', {
      exampleDs: async () => [await dsOf(keys.strayKsk, crypto)],
    });
    expect(failure).toMatchObject({ code: 'no-matching-ds', zone: 'example.test' });
  });

  it('no DNSKEY set', async () => {
    const failure = await failureOf('www.example.test', {
      tamper: (records) =>
        records.filter((r) => r.type !== 'DNSKEY' && !(r.type === 'RRSIG' && r.typeCovered === 'DNSKEY')),
    });
    expect(failure).toMatchObject({ code: 'missing-dnskey', zone: 'example.test' });
  });

  it('a DS algorithm that signs nothing', async () => {
    const failure = await failureOf('www.example.test', {
      exampleDs: async () => [await dsOf(keys.exampleEd, crypto)],
      // the Ed25519 key is published but signs nothing
      example: { records: [...exampleRecords, keys.exampleEd.record] },
    });
    expect(failure).toMatchObject({ code: 'algorithm-mismatch', zone: 'example.test' });
  });

  it('a record changed after signing', async () => {
    const failure = await failureOf('www.example.test', {
      tamper: (records) =>
        records.map((r) =>
          r.type === 'A' && r.name === 'www.example.test' ? withRdata({ ...r, address: '192.0.2.66' }) : r,
        ),
    });
    expect(failure).toMatchObject({ code: 'bad-signature', zone: 'example.test' });
  });

  // delv (BIND 9.18) accepts such an answer when the parent's key verifies it, since it takes the
  // zone from the signer's name; RFC 4035 §5.3.1 says the signer MUST be the zone that holds the
  // set, and the walk knows that zone from its DS, so we call it bogus
  it('a signature that names the parent as its signer', async () => {
    const failure = await failureOf('www.example.test', {
      tamper: (records) =>
        records.map((r) =>
          r.type === 'RRSIG' && r.typeCovered === 'A' && r.name === 'www.example.test'
            ? withRdata({ ...r, signerName: 'test' })
            : r,
        ),
    });
    expect(failure).toMatchObject({ code: 'wrong-signer', zone: 'example.test', rfc: 'RFC 4035 §5.3.1' });
    expect(failure?.fix).toMatch(/keys of the zone that holds them/);
  });

  it('a DNSKEY set signed by the ZSK alone', async () => {
    const failure = await failureOf('www.example.test', {
      tamper: (records) =>
        records.filter(
          (r) => !(r.type === 'RRSIG' && r.typeCovered === 'DNSKEY' && r.keyTag === keys.exampleKsk.keyTag),
        ),
    });
    expect(failure).toMatchObject({ code: 'missing-signature', zone: 'example.test' });
    expect(failure?.message).toContain(`no RRSIG by key ${keys.exampleKsk.keyTag}`);
    expect(failure?.fix).toContain(`with the key ${keys.exampleKsk.keyTag}`);
  });

  it('stripped signatures', async () => {
    const failure = await failureOf('www.example.test', {
      tamper: (records) => records.filter((r) => !(r.type === 'RRSIG' && r.typeCovered === 'A')),
    });
    expect(failure).toMatchObject({ code: 'missing-signature', zone: 'example.test' });
  });

  it('an NXDOMAIN whose NSEC chain does not cover the name', async () => {
    const failure = await failureOf('nope.example.test', {
      tamper: (records) =>
        records.filter(
          (r) =>
            r.name === 'example.test' ||
            !(r.type === 'NSEC' || (r.type === 'RRSIG' && r.typeCovered === 'NSEC')),
        ),
    });
    expect(failure).toMatchObject({ code: 'bad-denial-proof', zone: 'example.test' });
  });
});

describe('buildChain: DNS trouble and bad input', () => {
  it.each([
    ['.', 'DNSKEY'],
    ['test', 'DS'],
    ['test', 'DNSKEY'],
    ['example.test', 'DS'],
    ['example.test', 'DNSKEY'],
    ['www.example.test', 'A'],
  ])('a timeout for %s %s is indeterminate', async (owner, type) => {
    const chain = await chainOf('www.example.test', 'A', { switches: { [owner]: { timeout: [type] } } });
    expect(chain.status).toBe('indeterminate');
    expect(chain.failure?.code).toBe('dns-failure');
  });

  it('SERVFAIL is indeterminate', async () => {
    const chain = await chainOf('www.example.test', 'A', {
      switches: { 'example.test': { servfail: ['DNSKEY'] } },
    });
    expect(chain).toMatchObject({
      status: 'indeterminate',
      failure: { code: 'dns-failure', zone: 'example.test' },
    });
  });

  it('a CNAME loop', async () => {
    const chain = await chainOf('loop1.example.test', 'A');
    expect(chain.failure?.code).toBe('cname-loop');
    expect(chain.status).toBe('indeterminate');
  });

  it('more than 8 CNAMEs', async () => {
    const chain = await chainOf('c0.example.test', 'A');
    expect(chain.failure?.code).toBe('too-many-cnames');
  });

  it.each([
    [`${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.test`, 'at most 253'],
    [`${'x'.repeat(64)}.example.test`, 'at most 63'],
    ['a..example.test', 'empty label'],
  ])('refuses %s without a query', async (name, message) => {
    const resolver = createFixtureResolver({});
    const chain = await buildChain(name, 'A', { resolver, crypto, trustAnchors: anchors, now: NOW });
    expect(dnssecChainSchema.parse(chain)).toEqual(chain);
    expect(chain.failure?.code).toBe('invalid-name');
    expect(chain.failure?.message).toContain(message);
    expect(chain.queries).toBe(0);
    expect(resolver.queries).toEqual([]);
  });
});

describe('buildChain: warnings that do not break the chain', () => {
  it('signatures expiring within 7 days', async () => {
    const chain = await chainOf('www.example.test', 'A', {
      example: { window: { inception: NOW - DAY, expiration: NOW + 3 * DAY } },
    });
    expect(chain.status).toBe('secure');
    expect(codes(chain)).toContain('DNSSEC_SIGNATURE_EXPIRING');
  });

  it('a SHA-1 DS and a DS with no key beside a good one', async () => {
    const chain = await chainOf('www.example.test', 'A', {
      exampleDs: async () => [
        await dsOf(keys.exampleKsk, crypto),
        await dsOf(keys.exampleKsk, crypto, 1),
        await dsOf(keys.strayKsk, crypto),
      ],
    });
    expect(chain.status).toBe('secure');
    expect(codes(chain)).toEqual(expect.arrayContaining(['DNSSEC_DS_SHA1', 'DNSSEC_DS_NO_KEY']));
  });

  it('keys of two algorithms: a rollover in progress', async () => {
    const chain = await chainOf('www.example.test', 'A', {
      example: { ksks: [keys.exampleKsk, keys.exampleEd] },
    });
    expect(chain.status).toBe('secure');
    expect(codes(chain)).toContain('DNSSEC_ALGORITHM_ROLLOVER');
  });

  it('NSEC3 with iterations and a salt (RFC 9276)', async () => {
    const chain = await chainOf('nothere.nsec3.test', 'A', { nsec3: { iterations: 5, salt: 'abcd' } });
    expect(chain.answer.status).toBe('nxdomain');
    expect(codes(chain)).toEqual(expect.arrayContaining(['DNSSEC_NSEC3_ITERATIONS', 'DNSSEC_NSEC3_SALT']));
  });
});
