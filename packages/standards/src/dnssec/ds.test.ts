import { describe, expect, it } from 'vitest';
import { webCryptoProvider, type CryptoProvider } from '../core/crypto.ts';
import { matchDs } from './ds.ts';
import { dnskeyRecord, dsRecord } from './test-records.ts';

const crypto = webCryptoProvider() as CryptoProvider;

// RFC 6605 §6.1 and §6.2: the keys and their DS records as the RFC prints them
const p256 = dnskeyRecord(
  'example.net.',
  '257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
);
const p384 = dnskeyRecord(
  'example.net.',
  '257 3 14 xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1w/egsXvSADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8/uX45NBwY8rp65F6Glur8I/mlVNgF6W/qTI37m40',
);
const p256Ds = 'example.net.';

describe('matchDs (RFC 4035 §5.2)', () => {
  it.each([
    ['55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17', p256],
    [
      '10771 14 4 72d7b62976ce06438e9c0bf319013cf801f09ecc84b8d7e9495f27e305c6a9b0563a9b5f4d288405c3008a946df983d6',
      p384,
    ],
  ])('%s matches its key', async (ds, key) => {
    const result = await matchDs(dsRecord(p256Ds, ds), [p384, p256], 'EXAMPLE.net', crypto);
    expect(result).toEqual({ status: 'match', key });
  });

  it('a changed digest is wrong-digest and names the key with the digest it has (RFC 6605 §6.1)', async () => {
    const ds = dsRecord(
      p256Ds,
      '55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d18',
    );
    expect(await matchDs(ds, [p256], 'example.net', crypto)).toEqual({
      status: 'wrong-digest',
      key: p256,
      expectedDigest: 'B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
    });
  });

  it('the digest of another owner is wrong-digest', async () => {
    const ds = dsRecord(
      p256Ds,
      '55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17',
    );
    expect((await matchDs(ds, [p256], 'example.org', crypto)).status).toBe('wrong-digest');
  });

  it('no key with the tag and algorithm is no-key; a key without the Zone Key bit does not count', async () => {
    const ds = dsRecord(
      p256Ds,
      '55648 14 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17',
    );
    expect(await matchDs(ds, [p256], 'example.net', crypto)).toEqual({ status: 'no-key' });
    const notZone = { ...p256, flags: 1 };
    const ds2 = dsRecord(
      p256Ds,
      '55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17',
    );
    expect((await matchDs(ds2, [notZone], 'example.net', crypto)).status).toBe('no-key');
  });

  it('digest type 3 (GOST) is unsupported-digest', async () => {
    const ds = dsRecord(p256Ds, '55648 13 3 00');
    expect(await matchDs(ds, [p256], 'example.net', crypto)).toEqual({
      status: 'unsupported-digest',
      key: p256,
    });
  });
});
