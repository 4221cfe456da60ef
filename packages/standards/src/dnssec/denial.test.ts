import { describe, expect, it } from 'vitest';
import { webCryptoProvider, type CryptoProvider } from '../core/crypto.ts';
import { denialView, nsec3Hash, proveDenial } from './denial.ts';
import { nsec3Record, nsecRecord } from './test-records.ts';

const crypto = webCryptoProvider() as CryptoProvider;

describe('nsec3Hash (RFC 5155 Appendix A: salt aabbccdd, 12 iterations)', () => {
  it.each([
    ['example', '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom'],
    ['a.example', '35mthgpgcu1qg68fab165klnsnk3dpvl'],
    ['ai.example', 'gjeqe526plbf1g8mklp59enfd789njgi'],
    ['ns1.example', '2t7b4g4vsa5smi47k61mv5bv1a22bojr'],
    ['ns2.example', 'q04jkcevqvmu85r014c7dkba38o0ji5r'],
    ['w.example', 'k8udemvp1j2f7eg6jebps17vp3n8i58h'],
    ['*.w.example', 'r53bq7cc2uvmubfu5ocmm6pers9tk9en'],
    ['x.w.example', 'b4um86eghhds6nea196smvmlo4ors995'],
    ['y.w.example', 'ji6neoaepv8b5o6k4ev33abha8ht9fgc'],
    ['x.y.w.example', '2vptu5timamqttgl4luu9kg21e0aor3s'],
    ['xx.example', 't644ebqk9bibcna874givr6joj62mlhv'],
    ['X.W.Example.', 'b4um86eghhds6nea196smvmlo4ors995'],
  ])('H(%s) = %s', async (name, hash) => {
    expect(await nsec3Hash(name, 'aabbccdd', 12, crypto)).toBe(hash);
  });
});

// NSEC3 records of the RFC 5155 Appendix A zone, as Appendix B's answers carry them
const apex = nsec3Record(
  '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example',
  '1 1 12 aabbccdd 2t7b4g4vsa5smi47k61mv5bv1a22bojr MX DNSKEY NS SOA NSEC3PARAM RRSIG',
);
const xw = nsec3Record(
  'b4um86eghhds6nea196smvmlo4ors995.example',
  '1 1 12 aabbccdd gjeqe526plbf1g8mklp59enfd789njgi MX RRSIG',
);
const aExample = nsec3Record(
  '35mthgpgcu1qg68fab165klnsnk3dpvl.example',
  '1 1 12 aabbccdd b4um86eghhds6nea196smvmlo4ors995 NS DS RRSIG',
);
const ns1 = nsec3Record(
  '2t7b4g4vsa5smi47k61mv5bv1a22bojr.example',
  '1 1 12 aabbccdd 2vptu5timamqttgl4luu9kg21e0aor3s A RRSIG',
);
const ns2 = nsec3Record(
  'q04jkcevqvmu85r014c7dkba38o0ji5r.example',
  '1 1 12 aabbccdd r53bq7cc2uvmubfu5ocmm6pers9tk9en A RRSIG',
);
const zone = { zone: 'example', crypto };

describe('proveDenial with NSEC3 (RFC 5155 §8, Appendix B)', () => {
  it('B.1 name error: a.c.x.w.example does not exist', async () => {
    const result = await proveDenial(
      { name: 'a.c.x.w.example', type: 'A' },
      'nxdomain',
      [apex, xw, aExample],
      zone,
    );
    expect(result).toMatchObject({
      proven: true,
      method: 'NSEC3',
      closestEncloser: 'x.w.example',
      optOut: true,
    });
    expect(result.used).toHaveLength(3);
    expect(result.message).toContain('closest encloser');
    expect(denialView(result)).toMatchObject({ iterations: 12, salt: 'aabbccdd', proven: true });
    expect(denialView(result).records).toContain(
      '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example. 3600 IN NSEC3 1 1 12 AABBCCDD 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR MX DNSKEY NS SOA NSEC3PARAM RRSIG',
    );
  });

  it('B.1 without the closest encloser record is not proven', async () => {
    const result = await proveDenial(
      { name: 'a.c.x.w.example', type: 'A' },
      'nxdomain',
      [apex, aExample],
      zone,
    );
    expect(result.proven).toBe(false);
  });

  it('B.1 without the record covering the wildcard is not proven', async () => {
    const result = await proveDenial({ name: 'a.c.x.w.example', type: 'A' }, 'nxdomain', [apex, xw], zone);
    expect(result).toMatchObject({ proven: false });
    expect(result.message).toContain('*.x.w.example');
  });

  it('B.2 no data: ns1.example has no MX', async () => {
    const result = await proveDenial({ name: 'ns1.example', type: 'MX' }, 'nodata', [ns1], zone);
    expect(result).toMatchObject({ proven: true, used: [ns1] });
  });

  it('B.2 does not deny a type the bitmap lists', async () => {
    const result = await proveDenial({ name: 'ns1.example', type: 'A' }, 'nodata', [ns1], zone);
    expect(result.proven).toBe(false);
  });

  it('B.3 referral to an unsigned zone under Opt-Out: c.example has no DS', async () => {
    const result = await proveDenial(
      { name: 'c.example', type: 'DS' },
      'insecure-delegation',
      [apex, aExample],
      zone,
    );
    expect(result).toMatchObject({ proven: true, optOut: true, closestEncloser: 'example' });
  });

  it('B.3 without the Opt-Out flag proves no insecure delegation', async () => {
    const noOptOut = { ...aExample, flags: 0 };
    const result = await proveDenial(
      { name: 'c.example', type: 'DS' },
      'insecure-delegation',
      [apex, noOptOut],
      zone,
    );
    expect(result.proven).toBe(false);
  });

  it('a.example, a delegation with DS, is not insecure', async () => {
    const result = await proveDenial(
      { name: 'a.example', type: 'DS' },
      'insecure-delegation',
      [aExample],
      zone,
    );
    expect(result.proven).toBe(false);
    expect(result.message).toContain('lists DS');
  });

  it('B.4 wildcard expansion: no closer match than *.w.example for a.z.w.example', async () => {
    const result = await proveDenial({ name: 'a.z.w.example', type: 'MX' }, 'no-closer-match', [ns2], {
      ...zone,
      wildcardOf: 'w.example',
    });
    expect(result).toMatchObject({ proven: true, closestEncloser: 'w.example' });
  });

  it.each([
    [151, /151 extra iterations.*RFC 9276 §3\.2/],
    [150, null],
  ])('%i iterations', async (iterations, message) => {
    const records = [apex, xw, aExample].map((r) => ({ ...r, iterations }));
    const result = await proveDenial({ name: 'a.c.x.w.example', type: 'A' }, 'nxdomain', records, zone);
    if (message) {
      expect(result.proven).toBe(false);
      expect(result.message).toMatch(message);
    } else {
      // other hashes: the records no longer match, but the cap is not what stops them
      expect(result.message).not.toMatch(/RFC 9276/);
    }
  });

  it('hash algorithm 2 is unsupported', async () => {
    const result = await proveDenial(
      { name: 'a.c.x.w.example', type: 'A' },
      'nxdomain',
      [{ ...apex, hashAlgorithm: 2 }],
      zone,
    );
    expect(result.proven).toBe(false);
    expect(result.message).toContain('hash algorithm 2');
  });
});

// example.com: apex, a, d (delegation without DS), s (delegation with DS), w with a wildcard below
const nsecZone = [
  nsecRecord('example.com', 'a.example.com', ['NS', 'SOA', 'MX', 'RRSIG', 'NSEC', 'DNSKEY']),
  nsecRecord('a.example.com', 'd.example.com', ['A', 'RRSIG', 'NSEC']),
  nsecRecord('d.example.com', 's.example.com', ['NS', 'RRSIG', 'NSEC']),
  nsecRecord('s.example.com', 'w.example.com', ['NS', 'DS', 'RRSIG', 'NSEC']),
  nsecRecord('w.example.com', '*.w.example.com', ['TXT', 'RRSIG', 'NSEC']),
  nsecRecord('*.w.example.com', 'x.y.example.com', ['A', 'RRSIG', 'NSEC']),
  nsecRecord('x.y.example.com', 'example.com', ['A', 'RRSIG', 'NSEC']),
];
const [apexNsec, aNsec, dNsec, sNsec, wNsec, wildNsec, xyNsec] = nsecZone;
const com = { zone: 'example.com', crypto };

describe('proveDenial with NSEC (RFC 4035 §5.4, RFC 6840 §4)', () => {
  it('nxdomain: b.example.com is covered, and no wildcard *.example.com exists', async () => {
    // *.example.com sorts after example.com, before a.example.com: the apex NSEC covers it
    const result = await proveDenial(
      { name: 'b.example.com', type: 'A' },
      'nxdomain',
      [aNsec!, apexNsec!],
      com,
    );
    expect(result).toMatchObject({ proven: true, method: 'NSEC', closestEncloser: 'example.com' });
    const wrongCover = await proveDenial(
      { name: 'b.example.com', type: 'A' },
      'nxdomain',
      [aNsec!, xyNsec!],
      com,
    );
    expect(wrongCover.proven).toBe(false);
  });

  it('nxdomain without the wildcard proof fails', async () => {
    const result = await proveDenial({ name: 'b.example.com', type: 'A' }, 'nxdomain', [aNsec!], com);
    expect(result.proven).toBe(false);
    expect(result.message).toContain('*.example.com');
  });

  it('nxdomain fails for a name that has its own NSEC', async () => {
    const result = await proveDenial({ name: 'a.example.com', type: 'A' }, 'nxdomain', [aNsec!], com);
    expect(result.proven).toBe(false);
  });

  it('nxdomain below a delegation cannot use the parent NSEC at the cut (RFC 6840 §4.1)', async () => {
    const result = await proveDenial(
      { name: 'host.d.example.com', type: 'A' },
      'nxdomain',
      [dNsec!, apexNsec!],
      com,
    );
    expect(result.proven).toBe(false);
  });

  it('nodata: a.example.com has no MX, but has A', async () => {
    expect((await proveDenial({ name: 'a.example.com', type: 'MX' }, 'nodata', [aNsec!], com)).proven).toBe(
      true,
    );
    expect((await proveDenial({ name: 'a.example.com', type: 'A' }, 'nodata', [aNsec!], com)).proven).toBe(
      false,
    );
  });

  it('nodata at an empty non-terminal: y.example.com', async () => {
    const result = await proveDenial({ name: 'y.example.com', type: 'A' }, 'nodata', [wildNsec!], com);
    expect(result).toMatchObject({ proven: true });
    expect(result.message).toContain('empty non-terminal');
  });

  it('wildcard nodata: q.w.example.com has no MX because *.w.example.com has none', async () => {
    const result = await proveDenial({ name: 'q.w.example.com', type: 'MX' }, 'nodata', [wildNsec!], com);
    expect(result).toMatchObject({ proven: true, closestEncloser: 'w.example.com' });
  });

  it('insecure delegation: the NSEC at d.example.com lists NS without DS', async () => {
    const result = await proveDenial(
      { name: 'd.example.com', type: 'DS' },
      'insecure-delegation',
      [dNsec!],
      com,
    );
    expect(result).toMatchObject({ proven: true, used: [dNsec] });
  });

  it('a delegation listing DS is not insecure', async () => {
    const result = await proveDenial(
      { name: 's.example.com', type: 'DS' },
      'insecure-delegation',
      [sNsec!],
      com,
    );
    expect(result.proven).toBe(false);
  });

  it("the child apex's NSEC (NS and SOA) cannot deny the DS (RFC 6840 §4.2)", async () => {
    const childApex = nsecRecord('d.example.com', 'www.d.example.com', [
      'NS',
      'SOA',
      'RRSIG',
      'NSEC',
      'DNSKEY',
    ]);
    const result = await proveDenial(
      { name: 'd.example.com', type: 'DS' },
      'insecure-delegation',
      [childApex],
      {
        zone: 'example.com',
        crypto,
      },
    );
    expect(result.proven).toBe(false);
    expect(result.message).toContain('RFC 6840 §4.2');
  });

  it('the parent NSEC at a cut cannot deny data of the child (RFC 6840 §4.1)', async () => {
    const result = await proveDenial({ name: 'd.example.com', type: 'A' }, 'nodata', [dNsec!], com);
    expect(result.proven).toBe(false);
  });

  it('no closer match: v.w.example.com was answered by *.w.example.com', async () => {
    const result = await proveDenial({ name: 'v.w.example.com', type: 'A' }, 'no-closer-match', [wildNsec!], {
      ...com,
      wildcardOf: 'w.example.com',
    });
    expect(result).toMatchObject({ proven: true, closestEncloser: 'w.example.com' });
  });

  it('no closer match fails when a closer name exists', async () => {
    const result = await proveDenial({ name: 'q.x.y.example.com', type: 'A' }, 'no-closer-match', [xyNsec!], {
      ...com,
      wildcardOf: 'example.com',
    });
    expect(result.proven).toBe(false);
  });

  it('no records at all prove nothing', async () => {
    const result = await proveDenial({ name: 'b.example.com', type: 'A' }, 'nxdomain', [], com);
    expect(result).toMatchObject({ proven: false, used: [] });
    expect(wNsec).toBeDefined();
  });
});
