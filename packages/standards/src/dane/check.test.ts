import { describe, expect, it } from 'vitest';
import { webCryptoProvider } from '../core/crypto.ts';
import {
  certificateNameMatches,
  evaluateDaneEndpoint,
  summariseDaneCheck,
  type DaneEndpointInput,
} from './check.ts';
import { parsePemChain } from './pem.ts';

import { derivedTlsaCertificate } from './test-certificate.ts';

const crypto = webCryptoProvider()!;
const { pem: derivedPem, spkiSha256, certSha256 } = derivedTlsaCertificate;
const otherSha256 = 'a'.repeat(64);
const owner = '_25._tcp.www.example.com.';
const der = (() => {
  const chain = parsePemChain(derivedPem);
  if (!chain.ok) throw new Error(chain.error);
  return chain.result[0]!.der;
})();
const now = new Date('2027-01-01T00:00:00Z');
const tlsa = (...rdata: string[]) => rdata.map((fields) => `${owner} 300 IN TLSA ${fields}`);

function endpoint(overrides: Partial<DaneEndpointInput> = {}): DaneEndpointInput {
  return {
    protocol: 'smtp',
    host: 'www.example.com',
    port: 25,
    referenceNames: ['www.example.com'],
    addresses: {
      name: 'www.example.com',
      owner: 'www.example.com',
      status: 'secure',
      records: [],
      failure: null,
    },
    tlsa: {
      name: owner,
      owner,
      status: 'secure',
      records: tlsa(`3 1 1 ${spkiSha256}`),
      failure: null,
      found: 'records',
      tried: [owner],
    },
    tls: {
      status: 'ok',
      starttls: 'smtp',
      certificates: [{ der, names: ['www.example.com'], issuer: null }],
      pkixTrusted: false,
    },
    now,
    ...overrides,
  };
}

const withRecords = (records: string[], status: 'secure' | 'insecure' | 'bogus' = 'secure') =>
  endpoint({ tlsa: { ...endpoint().tlsa, records, status } });
const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);

describe('evaluateDaneEndpoint: DANE-EE (RFC 7671 §5.1)', () => {
  it.each([
    ['3 1 1', spkiSha256],
    ['3 0 1', certSha256],
  ])('%s of the presented certificate passes, with no name or date checks', async (parameters, data) => {
    // the reference name differs from the certificate's and the date is past its expiry: DANE-EE ignores both
    const result = await evaluateDaneEndpoint(
      {
        ...withRecords(tlsa(`${parameters} ${data}`)),
        referenceNames: ['mx.other.test'],
        now: new Date('2040-01-01'),
      },
      crypto,
    );
    expect(result.verdict).toBe('pass');
    expect(result.records[0]).toMatchObject({ usable: true, matched: true, certificate: 0, problem: null });
    expect(codes(result)).toEqual(['DANE_MATCH']);
    expect(result.rollover).toMatchObject({ ready: false, rfc: 'RFC 7671 §8.1' });
    expect(result.tls.certificates[0]).toMatchObject({ index: 0, names: ['www.example.com'] });
  });

  it('a digest of another key fails: senders must not deliver', async () => {
    const result = await evaluateDaneEndpoint(withRecords(tlsa(`3 1 1 ${otherSha256}`)), crypto);
    expect(result.verdict).toBe('fail');
    expect(result.records[0]).toMatchObject({ usable: true, matched: false, certificate: null });
    const noMatch = result.reasons.find((reason) => reason.code === 'DANE_NO_MATCH');
    expect(noMatch?.message).toMatch(/must not deliver/);
    expect(noMatch?.fix).toMatch(/Generate the record again/);
  });

  it('two DANE-EE records, the current and the next key, are ready for a rollover (RFC 7671 §8.1)', async () => {
    const result = await evaluateDaneEndpoint(
      withRecords(tlsa(`3 1 1 ${spkiSha256}`, `3 1 1 ${otherSha256}`)),
      crypto,
    );
    expect(result.verdict).toBe('pass');
    expect(result.rollover).toMatchObject({ ready: true, rfc: 'RFC 7671 §8.1', fix: null });
  });
});

describe('evaluateDaneEndpoint: DANE-TA (RFC 7671 §5.2, RFC 7672 §3.2.2)', () => {
  // the self-signed certificate stands as its own issuer above a leaf that is the same certificate
  const taChain = (names: string[]) => ({
    status: 'ok' as const,
    starttls: 'smtp',
    certificates: [
      { der, names, issuer: 1 },
      { der, names: [], issuer: null },
    ],
    pkixTrusted: false,
  });

  it('a CA on the path, with the server name among the reference names, passes; DANE-EE beside it makes rollover ready', async () => {
    const result = await evaluateDaneEndpoint(
      {
        ...withRecords(tlsa(`2 0 1 ${certSha256}`, `3 1 1 ${otherSha256}`)),
        tls: taChain(['*.example.com']),
      },
      crypto,
    );
    expect(result.verdict).toBe('pass');
    expect(result.records[0]).toMatchObject({ matched: true, certificate: 1 });
    expect(result.rollover).toMatchObject({ ready: true, rfc: 'RFC 7671 §8.4' });
  });

  it('names are checked: a certificate for another name fails', async () => {
    const result = await evaluateDaneEndpoint(
      { ...withRecords(tlsa(`2 0 1 ${certSha256}`)), tls: taChain(['mail.other.test']) },
      crypto,
    );
    expect(result.verdict).toBe('fail');
    expect(result.records[0]?.problem).toMatch(/names mail\.other\.test, not www\.example\.com/);
    expect(codes(result)).toEqual(['DANE_MATCH_REJECTED', 'DANE_NO_MATCH']);
  });

  it('the server certificate’s dates are checked', async () => {
    const result = await evaluateDaneEndpoint(
      {
        ...withRecords(tlsa(`2 0 1 ${certSha256}`)),
        tls: taChain(['www.example.com']),
        now: new Date('2037-01-01'),
      },
      crypto,
    );
    expect(result.verdict).toBe('fail');
    expect(result.records[0]?.problem).toMatch(/server certificate expired on 2036-11-19/);
  });

  it('a CA that did not issue the server certificate does not count', async () => {
    const result = await evaluateDaneEndpoint(
      {
        ...withRecords(tlsa(`2 0 1 ${certSha256}`)),
        tls: {
          ...taChain(['www.example.com']),
          certificates: [
            { der, names: [], issuer: null },
            { der, names: [], issuer: null },
          ],
        },
      },
      crypto,
    );
    expect(result.verdict).toBe('fail');
    expect(result.records[0]?.problem).toMatch(/did not issue the server certificate/);
  });
});

describe('evaluateDaneEndpoint: unusable records and DNSSEC status (RFC 7672 §2)', () => {
  it('usage 1 on port 25 is unusable (RFC 7672 §3.1.3): nothing usable, so not applicable', async () => {
    const result = await evaluateDaneEndpoint(withRecords(tlsa(`1 1 1 ${spkiSha256}`)), crypto);
    expect(result.records[0]).toMatchObject({ usable: false, matched: false });
    expect(result.records[0]?.unusableReason).toMatch(/RFC 7672 §3\.1\.3/);
    expect(result.verdict).toBe('not-applicable');
    expect(codes(result)).toEqual(['DANE_TLSA_UNUSABLE', 'DANE_TLSA_ALL_UNUSABLE']);
  });

  it('usage 1 over HTTPS needs a PKIX-trusted chain too', async () => {
    const result = await evaluateDaneEndpoint(
      { ...withRecords(tlsa(`1 1 1 ${spkiSha256}`)), protocol: 'https', port: 443 },
      crypto,
    );
    expect(result.records[0]).toMatchObject({ usable: true, matched: false, certificate: 0 });
    expect(result.records[0]?.problem).toMatch(/verify to a public CA/);
    expect(result.verdict).toBe('fail');
  });

  it.each([
    ['an unknown usage', `4 1 1 ${spkiSha256}`, /not one clients know/],
    ['a digest of the wrong length', `3 1 1 ${spkiSha256.slice(2)}`, /31 octets where SHA2-256 gives 32/],
  ])('%s is unusable and ignored beside a usable record', async (_, rdata, why) => {
    const result = await evaluateDaneEndpoint(withRecords(tlsa(rdata, `3 1 1 ${spkiSha256}`)), crypto);
    expect(result.records[0]?.unusableReason).toMatch(why);
    expect(result.verdict).toBe('pass');
  });

  it('a bogus TLSA answer fails: do not deliver (RFC 7672 §2.1.1)', async () => {
    const result = await evaluateDaneEndpoint(withRecords(tlsa(`3 1 1 ${spkiSha256}`), 'bogus'), crypto);
    expect(result.verdict).toBe('fail');
    expect(result.reasons[0]).toMatchObject({ code: 'DANE_TLSA_BOGUS', rfc: 'RFC 7672 §2.1.1' });
    expect(result.reasons[0]?.message).toMatch(/do not deliver/);
  });

  it('TLSA in an unsigned zone is not applicable, with the fix to sign it', async () => {
    const result = await evaluateDaneEndpoint(withRecords(tlsa(`3 1 1 ${spkiSha256}`), 'insecure'), crypto);
    expect(result.verdict).toBe('not-applicable');
    expect(result.reasons[0]).toMatchObject({ code: 'DANE_TLSA_INSECURE' });
    expect(result.reasons[0]?.fix).toMatch(/DS record/);
  });

  it('no TLSA in a signed zone is not applicable', async () => {
    const result = await evaluateDaneEndpoint(
      endpoint({
        tlsa: { ...endpoint().tlsa, records: [], found: 'none' },
        tls: { status: 'not-attempted' },
      }),
      crypto,
    );
    expect(result.verdict).toBe('not-applicable');
    expect(codes(result)).toEqual(['DANE_NO_TLSA']);
    expect(result.rollover).toBeNull();
  });

  it('unsigned address records of an MX host mean no TLSA lookup (RFC 7672 §2.2.2)', async () => {
    const result = await evaluateDaneEndpoint(
      endpoint({ addresses: { ...endpoint().addresses, status: 'insecure' } }),
      crypto,
    );
    expect(result.verdict).toBe('not-applicable');
    expect(codes(result)).toEqual(['DANE_ADDRESS_INSECURE']);
  });

  it('an unanswered TLSA lookup gives no verdict', async () => {
    const result = await evaluateDaneEndpoint(
      endpoint({
        tlsa: {
          ...endpoint().tlsa,
          status: 'indeterminate',
          found: 'failed',
          records: [],
          failure: 'no answer',
        },
      }),
      crypto,
    );
    expect(result.verdict).toBe('indeterminate');
    expect(result.reasons[0]?.message).toMatch(/no answer/);
  });

  it('a usable TLSA with TLS failing fails: TLS is required', async () => {
    const result = await evaluateDaneEndpoint(
      endpoint({
        tls: {
          status: 'failed',
          starttls: 'smtp',
          code: 'CONNECT_FAILED',
          message: 'Nothing answered on port 25',
        },
      }),
      crypto,
    );
    expect(result.verdict).toBe('fail');
    expect(result.reasons.at(-1)).toMatchObject({ code: 'DANE_TLS_FAILED' });
    expect(result.reasons.at(-1)?.message).toMatch(/STARTTLS on port 25 failed: Nothing answered/);
  });
});

describe('certificateNameMatches (RFC 6125 §6.4, RFC 7672 §3.2.3)', () => {
  it.each([
    ['mx.example.com', 'MX.Example.com.', true],
    ['*.example.com', 'mx.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'a.mx.example.com', false],
    ['*.com', 'example.com', false],
    ['mx.example.com', 'mx2.example.com', false],
  ])('%s for %s: %s', (presented, reference, expected) => {
    expect(certificateNameMatches(presented, reference)).toBe(expected);
  });
});

describe('summariseDaneCheck', () => {
  const mx = (
    status: 'secure' | 'insecure' | 'bogus',
    hosts: { preference: number; host: string }[] = [],
  ) => ({
    lookup: { name: 'example.com', owner: 'example.com', status, records: [], failure: null },
    hosts,
    implicit: false,
  });

  it('one protected MX host and one without DANE is a downgrade path: fail with the host named', async () => {
    const pass = await evaluateDaneEndpoint(endpoint(), crypto);
    const none = await evaluateDaneEndpoint(
      endpoint({ host: 'mx2.example.com', tlsa: { ...endpoint().tlsa, records: [], found: 'none' } }),
      crypto,
    );
    const result = summariseDaneCheck({
      host: 'example.com',
      port: 25,
      protocol: 'smtp',
      mx: mx('secure', [
        { preference: 10, host: 'www.example.com' },
        { preference: 20, host: 'mx2.example.com' },
      ]),
      endpoints: [pass, none],
      now,
    });
    expect(result.verdict).toBe('fail');
    expect(result.reasons.at(-1)?.message).toMatch(/^mx2\.example\.com has no usable TLSA/);
  });

  it('a bogus MX answer fails, a null MX is not applicable', () => {
    const base = { host: 'example.com', port: 25, protocol: 'smtp' as const, endpoints: [], now };
    expect(summariseDaneCheck({ ...base, mx: mx('bogus') }).verdict).toBe('fail');
    const nullMx = summariseDaneCheck({ ...base, mx: mx('secure') });
    expect(nullMx.verdict).toBe('not-applicable');
    expect(nullMx.reasons[0]?.code).toBe('DANE_NULL_MX');
  });

  it('says so when more MX hosts are listed than were checked', async () => {
    const hosts = Array.from({ length: 12 }, (_, i) => ({ preference: i, host: `mx${i}.example.com` }));
    const result = summariseDaneCheck({
      host: 'example.com',
      port: 25,
      protocol: 'smtp',
      mx: mx('secure', hosts),
      endpoints: [await evaluateDaneEndpoint(endpoint(), crypto)],
      now,
    });
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_MX_NOT_ALL_CHECKED']);
    expect(result.reasons[0]?.message).toBe(
      'example.com lists 12 MX hosts; the 1 most preferred were checked.',
    );
  });

  it('an unsigned MX set warns beside passing hosts (RFC 7672 §2.2.1)', async () => {
    const result = summariseDaneCheck({
      host: 'example.com',
      port: 25,
      protocol: 'smtp',
      mx: mx('insecure', [{ preference: 10, host: 'www.example.com' }]),
      endpoints: [await evaluateDaneEndpoint(endpoint(), crypto)],
      now,
    });
    expect(result.verdict).toBe('pass');
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_MX_INSECURE']);
  });
});
