import { describe, expect, it } from 'vitest';
import { createFixtureResolver, type FixtureZones } from '../core/fixture-resolver.ts';
import { discoverDmarc, rfc7489OrganizationalDomain } from './discovery.ts';
import { createDmarcDns, dmarcTreeWalk, dmarcTreeWalkTargets } from './lookups.ts';

const rua = 'rua=mailto:dmarc@example.com';

function discover(domain: string, zones: FixtureZones) {
  const resolver = createFixtureResolver(zones);
  return { resolver, discovery: discoverDmarc(domain, resolver) };
}

describe('dmarcTreeWalkTargets (RFC 9989 §4.10)', () => {
  it('climbs one label at a time for short names', () => {
    expect(dmarcTreeWalkTargets('mail.example.com')).toEqual(['mail.example.com', 'example.com', 'com']);
    expect(dmarcTreeWalkTargets('com')).toEqual(['com']);
  });

  it('jumps to seven labels from a name of eight or more, never asking more than eight names', () => {
    const eight = 'a.b.c.d.e.f.example.com';
    expect(dmarcTreeWalkTargets(eight)).toEqual([
      eight,
      'b.c.d.e.f.example.com',
      'c.d.e.f.example.com',
      'd.e.f.example.com',
      'e.f.example.com',
      'f.example.com',
      'example.com',
      'com',
    ]);
    // RFC 9989 §5.1.8's example
    expect(dmarcTreeWalkTargets('mail.a.b.c.d.e.f.g.example.com')).toEqual([
      'mail.a.b.c.d.e.f.g.example.com',
      'c.d.e.f.g.example.com',
      'd.e.f.g.example.com',
      'e.f.g.example.com',
      'f.g.example.com',
      'g.example.com',
      'example.com',
      'com',
    ]);
    for (let labels = 1; labels <= 20; labels++) {
      const name = Array.from({ length: labels }, (_, i) => `l${i}`).join('.');
      expect(dmarcTreeWalkTargets(name).length).toBe(Math.min(labels, 8));
    }
  });
});

describe('dmarcTreeWalk: the Organizational Domain (RFC 9989 §4.10.2)', () => {
  const zones: FixtureZones = {
    '_dmarc.example.com': { TXT: 'v=DMARC1; p=none' },
    '_dmarc.mail.example.com': { TXT: 'v=DMARC1; p=reject' },
    '_dmarc.dept.example.com': { TXT: 'v=DMARC1; p=reject; psd=n' },
    '_dmarc.com': { TXT: 'v=DMARC1; p=reject; psd=y' },
  };
  const walk = (domain: string) => dmarcTreeWalk(domain, createDmarcDns(createFixtureResolver(zones)));

  it('is the record with the fewest labels', async () => {
    expect((await walk('a.mail.example.com')).organizationalDomain).toBe('example.com');
  });

  it('stops at psd=n', async () => {
    const result = await walk('x.dept.example.com');
    expect(result).toMatchObject({ organizationalDomain: 'dept.example.com', rule: 'psd-n' });
    expect(result.lookups.map((l) => l.domain)).toEqual(['x.dept.example.com', 'dept.example.com']);
  });

  it('is the domain below a psd=y record', async () => {
    const zonesWithPsdOnly: FixtureZones = { '_dmarc.com': { TXT: 'v=DMARC1; p=reject; psd=y' } };
    const result = await dmarcTreeWalk(
      'a.mail.example.com',
      createDmarcDns(createFixtureResolver(zonesWithPsdOnly)),
    );
    expect(result).toMatchObject({ organizationalDomain: 'example.com', rule: 'psd-y' });
    expect(result.publicSuffixLookup?.domain).toBe('com');
  });

  it('ignores psd=y at the start of the walk', async () => {
    const result = await walk('com');
    expect(result).toMatchObject({ organizationalDomain: 'com', rule: 'fewest-labels' });
  });

  it('is the start when no record exists', async () => {
    const result = await dmarcTreeWalk('a.example.org', createDmarcDns(createFixtureResolver({})));
    expect(result).toMatchObject({ organizationalDomain: 'a.example.org', rule: 'start' });
  });
});

describe('discoverDmarc', () => {
  it("takes the Author Domain's own record and its p", async () => {
    const { discovery } = discover('example.com', {
      '_dmarc.example.com': { TXT: `v=DMARC1; p=quarantine; ${rua}` },
    });
    const result = await discovery;
    expect(result.result).toBe('policy');
    expect(result.policy).toMatchObject({
      source: 'author',
      tag: 'p',
      requested: 'quarantine',
      applied: 'quarantine',
    });
    expect(result.record).toMatchObject({
      domain: 'example.com',
      name: '_dmarc.example.com',
      source: 'author',
    });
    expect(result.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('uses sp for an existing subdomain and np for one that does not exist', async () => {
    const zones: FixtureZones = {
      '_dmarc.example.com': { TXT: `v=DMARC1; p=reject; sp=quarantine; np=none; ${rua}` },
      'www.example.com': { A: '192.0.2.1' },
    };
    const existing = await discoverDmarc('www.example.com', createFixtureResolver(zones));
    expect(existing.policy).toMatchObject({ source: 'organizational', tag: 'sp', requested: 'quarantine' });
    expect(existing.domainExists).toBe(true);
    const missing = await discoverDmarc('nothing.example.com', createFixtureResolver(zones));
    expect(missing.policy).toMatchObject({ tag: 'np', requested: 'none' });
    expect(missing.domainExists).toBe(false);
    expect(missing.diagnostics.find((d) => d.code === 'DMARC_POLICY_SOURCE')?.message).toContain(
      'does not exist',
    );
    // RFC 7489 receivers know no np
    expect(missing.rfc7489.policy).toMatchObject({ tag: 'sp', requested: 'quarantine' });
    expect(missing.diagnostics.map((d) => d.code)).toContain('DMARC_RFC7489_DIFFERENT');
  });

  it('counts an alias as existing even when its target does not exist', async () => {
    const result = await discoverDmarc(
      'alias.example.com',
      createFixtureResolver({
        '_dmarc.example.com': { TXT: `v=DMARC1; p=reject; sp=quarantine; np=reject; ${rua}` },
        'alias.example.com': { CNAME: 'gone.example.net' },
      }),
    );
    expect(result.domainExists).toBe(true);
    expect(result.policy?.tag).toBe('sp');
  });

  it("falls back to the Public Suffix Domain's record", async () => {
    const result = await discoverDmarc(
      'shop.brand.example',
      createFixtureResolver({
        '_dmarc.example': { TXT: 'v=DMARC1; p=reject; psd=y; rua=mailto:psd@example' },
      }),
    );
    expect(result.organizationalDomain).toBe('brand.example');
    expect(result.policy).toMatchObject({
      source: 'public-suffix',
      recordDomain: 'example',
      requested: 'reject',
    });
  });

  it('reports multiple records, unrelated TXT and an SPF record at _dmarc', async () => {
    const result = await discoverDmarc(
      'example.com',
      createFixtureResolver({
        '_dmarc.example.com': {
          TXT: ['v=DMARC1; p=none', 'v=DMARC1; p=reject', 'v=spf1 -all', 'google-site-verification=x'],
        },
      }),
    );
    expect(result.result).toBe('none');
    const byCode = Object.fromEntries(result.diagnostics.map((d) => [d.code, d.severity]));
    expect(byCode).toMatchObject({
      DMARC_MULTIPLE_RECORDS: 'error',
      DMARC_SPF_AT_DMARC: 'warning',
      DMARC_UNRELATED_TXT: 'info',
      DMARC_NO_RECORD: 'error',
    });
    expect(result.lookups[0]).toMatchObject({
      outcome: 'multiple',
      dmarc: ['v=DMARC1; p=none', 'v=DMARC1; p=reject'],
    });
  });

  it('finds a record published at the apex instead of _dmarc', async () => {
    const result = await discoverDmarc(
      'example.com',
      createFixtureResolver({ 'example.com': { TXT: ['v=spf1 -all', 'v=DMARC1; p=reject'] } }),
    );
    expect(result.record).toBeNull();
    expect(result.diagnostics.find((d) => d.code === 'DMARC_RECORD_AT_APEX')?.message).toContain(
      '_dmarc.example.com',
    );
  });

  it('keeps walking past a failed lookup and says so', async () => {
    const result = await discoverDmarc(
      'mail.example.com',
      createFixtureResolver({
        '_dmarc.mail.example.com': { servfail: true },
        '_dmarc.example.com': { TXT: `v=DMARC1; p=reject; ${rua}` },
      }),
    );
    expect(result.result).toBe('policy');
    expect(result.lookups[0]?.outcome).toBe('failed');
    expect(result.diagnostics.find((d) => d.code === 'DMARC_LOOKUP_FAILED')?.severity).toBe('warning');
  });

  it('gives temperror when nothing was found and a lookup failed', async () => {
    const result = await discoverDmarc(
      'example.com',
      createFixtureResolver({ '_dmarc.example.com': { timeout: true } }),
    );
    expect(result.result).toBe('temperror');
    expect(result.rfc7489.result).toBe('temperror');
    expect(result.diagnostics.map((d) => d.code)).toContain('DMARC_DISCOVERY_TEMPERROR');
  });

  it('says which names the eight-query shortcut skips', async () => {
    const { resolver, discovery } = discover('a.b.c.d.e.f.g.h.i.example.com', {
      '_dmarc.example.com': { TXT: `v=DMARC1; p=none; ${rua}` },
    });
    const result = await discovery;
    expect(result.skipped).toEqual([
      'b.c.d.e.f.g.h.i.example.com',
      'c.d.e.f.g.h.i.example.com',
      'd.e.f.g.h.i.example.com',
    ]);
    expect(result.diagnostics.find((d) => d.code === 'DMARC_TREE_WALK_SHORTCUT')?.rfc).toBe(
      'RFC 9989 §5.1.8',
    );
    const dmarcQueries = resolver.queries.filter((q) => q.name.startsWith('_dmarc.'));
    expect(new Set(dmarcQueries.map((q) => q.name)).size).toBeLessThanOrEqual(8);
  });

  it('asks each name once however many readings need it', async () => {
    const { resolver, discovery } = discover('mail.example.com', {
      '_dmarc.example.com': { TXT: `v=DMARC1; p=none; ${rua}` },
    });
    await discovery;
    const asked = resolver.queries.map((q) => `${q.name} ${q.type}`);
    expect(asked.length).toBe(new Set(asked).size);
  });

  it('gives no policy for a record without p and without a valid rua', async () => {
    const result = await discoverDmarc(
      'example.com',
      createFixtureResolver({ '_dmarc.example.com': { TXT: 'v=DMARC1; adkim=s' } }),
    );
    expect(result.result).toBe('none');
    expect(result.record?.text).toBe('v=DMARC1; adkim=s');
    expect(result.reason).toContain('no valid p tag');
  });
});

describe('rfc7489OrganizationalDomain', () => {
  it.each([
    ['mail.example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['co.uk', 'co.uk'],
    ['example.test', 'example.test'],
    ['foo.github.io', 'foo.github.io'],
  ])('%s → %s', (domain, expected) => {
    expect(rfc7489OrganizationalDomain(domain)).toBe(expected);
  });
});
