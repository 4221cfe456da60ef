import { describe, expect, it } from 'vitest';
import { webCryptoProvider } from '../core/crypto.ts';
import {
  certificateNameMatches,
  evaluateDaneEndpoint,
  summariseDaneCheck,
  type DaneEndpointInput,
  type DaneMxInput,
} from './check.ts';
import { parsePemChain } from '../core/pem.ts';

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

const securedTlsa: NonNullable<DaneEndpointInput['tlsa']> = {
  name: owner,
  owner,
  status: 'secure',
  records: tlsa(`3 1 1 ${spkiSha256}`),
  failure: null,
  answer: 'ok',
  denial: null,
  found: 'records',
  tried: [owner],
};

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
      records: ['www.example.com. 300 IN A 192.0.2.25'],
      failure: null,
      answer: 'ok',
      denial: null,
    },
    tlsa: securedTlsa,
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
  endpoint({ tlsa: { ...securedTlsa, records, status } });
const codes = (result: { reasons: { code: string }[] }) => result.reasons.map((reason) => reason.code);
const nxdomainHost: Partial<DaneEndpointInput> = {
  addresses: {
    name: 'www.example.com',
    owner: 'www.example.com',
    status: 'secure',
    records: [],
    failure: null,
    answer: 'nxdomain',
    denial: { method: 'NSEC', proven: true, message: 'NSEC proves www.example.com does not exist' },
  },
  tlsa: null,
  tls: { status: 'not-attempted' },
};

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
        tlsa: { ...securedTlsa, records: [], found: 'none' },
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
          ...securedTlsa,
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

  it('a host that does not exist is unreachable: the secure denial named, no TLSA and no connection', async () => {
    const result = await evaluateDaneEndpoint(endpoint(nxdomainHost), crypto);
    expect(result).toMatchObject({ verdict: 'not-applicable', tlsa: null, records: [], rollover: null });
    expect(result.addresses).toMatchObject({ answer: 'nxdomain', denial: { method: 'NSEC', proven: true } });
    expect(result.reasons).toMatchObject([
      { code: 'DANE_HOST_NXDOMAIN', rfc: 'RFC 5321 §5.1, RFC 7672 §2.2.2' },
    ]);
    expect(result.reasons[0]?.message).toBe(
      'www.example.com does not exist (NXDOMAIN, a secure denial: signed NSEC records prove it). Senders cannot reach this host and skip it: no TLSA records were looked up and no connection was made.',
    );
  });

  it('a host with no A or AAAA in an unsigned zone says the absence is not proven by DNSSEC', async () => {
    const result = await evaluateDaneEndpoint(
      endpoint({
        addresses: { ...endpoint().addresses, status: 'insecure', records: [], answer: 'nodata' },
        tlsa: null,
        tls: { status: 'not-attempted' },
      }),
      crypto,
    );
    expect(result.verdict).toBe('not-applicable');
    expect(codes(result)).toEqual(['DANE_HOST_NO_ADDRESS']);
    expect(result.reasons[0]?.message).toMatch(
      /^www\.example\.com has no A or AAAA records \(not proven by DNSSEC: the zone is unsigned\)\./,
    );
  });
});

describe('evaluateDaneEndpoint: wording', () => {
  const timedOut = 'No answer from 127.0.0.1 (2 tries of 2000 ms).';
  const unanswered = (protocol: DaneEndpointInput['protocol']) =>
    evaluateDaneEndpoint(
      endpoint({
        protocol,
        tlsa: { ...securedTlsa, status: 'indeterminate', found: 'failed', records: [], failure: timedOut },
      }),
      crypto,
    );

  it('ends each sentence once where a failure that ends in a full stop is followed by another sentence', async () => {
    const message = (await unanswered('smtp')).reasons[0]?.message ?? '';
    expect(message).toBe(
      `The TLSA records at ${owner} could not be looked up: ${timedOut} Senders defer mail to this host until DNS answers; this check has no verdict.`,
    );
  });

  it.each(['https', 'imap'] as const)('speaks of clients, not senders or mail, for %s', async (protocol) => {
    const result = await unanswered(protocol);
    expect(result.reasons[0]?.message).toMatch(/Clients that use DANE cannot authenticate the server/);
    expect(result.reasons[0]?.message).not.toMatch(/sender|mail|deliver/i);
    expect(result.reasons[0]?.rfc).toBe('RFC 6698 §4.1');
  });

  it('a bogus TLSA answer on HTTPS tells clients not to connect, without mail words', async () => {
    const result = await evaluateDaneEndpoint(
      endpoint({
        protocol: 'https',
        tlsa: { ...securedTlsa, status: 'bogus', failure: 'The DS does not match that key.' },
      }),
      crypto,
    );
    expect(result.reasons[0]?.message).toBe(
      `The TLSA answer at ${owner} fails DNSSEC validation: The DS does not match that key. Clients must not connect to it.`,
    );
  });

  it.each([
    [[`3 1 1 ${otherSha256}`], `The one usable TLSA record at ${owner} does not authenticate`],
    [
      [`3 1 1 ${otherSha256}`, `3 0 1 ${otherSha256}`],
      `None of the 2 usable TLSA records at ${owner} authenticates`,
    ],
  ])('a failed match of %j is counted in good English', async (rdata, start) => {
    const result = await evaluateDaneEndpoint(withRecords(tlsa(...rdata)), crypto);
    const message = result.reasons.find((reason) => reason.code === 'DANE_NO_MATCH')?.message ?? '';
    expect(message.startsWith(start)).toBe(true);
    expect(message).not.toMatch(/\.\./);
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
  ): DaneMxInput => ({
    lookup: {
      name: 'example.com',
      owner: 'example.com',
      status,
      records: hosts.map((entry) => `example.com. 300 IN MX ${entry.preference} ${entry.host}.`),
      failure: null,
      answer: 'ok',
      denial: null,
    },
    hosts,
    implicit: false,
  });

  const summariseSmtp = (
    mxInput: DaneMxInput,
    endpoints: Awaited<ReturnType<typeof evaluateDaneEndpoint>>[],
    host = 'example.com',
  ) => summariseDaneCheck({ host, port: 25, protocol: 'smtp', mx: mxInput, endpoints, now });

  it('one protected MX host and one without DANE is a downgrade path: fail with the host named', async () => {
    const pass = await evaluateDaneEndpoint(endpoint(), crypto);
    const none = await evaluateDaneEndpoint(
      endpoint({ host: 'mx2.example.com', tlsa: { ...securedTlsa, records: [], found: 'none' } }),
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
      'example.com lists 12 MX hosts; only the most preferred was checked.',
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

  it('a domain that does not exist has no mail host: not applicable, the NXDOMAIN and its proof said', () => {
    const result = summariseSmtp(
      {
        lookup: {
          ...mx('secure').lookup,
          answer: 'nxdomain',
          denial: { method: 'NSEC3', proven: true, message: 'proven' },
        },
        hosts: [],
        implicit: false,
      },
      [],
      'nope.example.com',
    );
    expect(result).toMatchObject({
      verdict: 'not-applicable',
      endpoints: [],
      mx: { answer: 'nxdomain', implicit: false },
    });
    expect(result.summary).toBe(
      'nope.example.com does not exist (NXDOMAIN): it has no mail host, and DANE does not apply.',
    );
    expect(result.reasons).toMatchObject([
      { code: 'DANE_DOMAIN_NXDOMAIN', rfc: 'RFC 1035 §4.1.1, RFC 4035 §5.4' },
    ]);
    expect(result.reasons[0]?.message).toMatch(
      /^nope\.example\.com does not exist \(NXDOMAIN, a secure denial: signed NSEC3 records prove it\)\./,
    );
    expect(result.reasons[0]?.fix).toBeTruthy();
  });

  it('no MX and no address records: no implicit MX, so no mail host (RFC 5321 §5.1)', async () => {
    const unreachable = await evaluateDaneEndpoint(
      endpoint({ ...nxdomainHost, addresses: { ...nxdomainHost.addresses!, answer: 'nodata' } }),
      crypto,
    );
    const result = summariseSmtp(
      { ...mx('secure'), lookup: { ...mx('secure').lookup, answer: 'nodata' }, implicit: true },
      [unreachable],
      'www.example.com',
    );
    expect(result.verdict).toBe('not-applicable');
    expect(result.mx?.implicit).toBe(false);
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_NO_MAIL_HOST']);
    expect(result.reasons[0]).toMatchObject({ rfc: 'RFC 5321 §5.1' });
    expect(result.reasons[0]?.fix).toMatch(/null MX/);
  });

  it('no MX but an address: the domain is its own implicit MX', async () => {
    const result = summariseSmtp(
      { ...mx('secure'), lookup: { ...mx('secure').lookup, answer: 'nodata' }, implicit: true },
      [await evaluateDaneEndpoint(endpoint(), crypto)],
      'www.example.com',
    );
    expect(result).toMatchObject({ verdict: 'pass', mx: { implicit: true } });
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_IMPLICIT_MX']);
  });

  it('an MX host without addresses is skipped; the others decide', async () => {
    const result = summariseSmtp(
      mx('secure', [
        { preference: 10, host: 'www.example.com' },
        { preference: 20, host: 'gone.example.com' },
      ]),
      [
        await evaluateDaneEndpoint(endpoint(), crypto),
        await evaluateDaneEndpoint(endpoint({ ...nxdomainHost, host: 'gone.example.com' }), crypto),
      ],
    );
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('DANE authenticates the MX host of example.com.');
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_MX_UNREACHABLE']);
    expect(result.reasons[0]?.message).toBe(
      'gone.example.com has no A or AAAA records. Senders skip it; the other MX hosts decide the verdict.',
    );
  });

  it('MX hosts none of which has an address: mail cannot be delivered', async () => {
    const result = summariseSmtp(mx('secure', [{ preference: 10, host: 'gone.example.com' }]), [
      await evaluateDaneEndpoint(endpoint({ ...nxdomainHost, host: 'gone.example.com' }), crypto),
    ]);
    expect(result.verdict).toBe('not-applicable');
    expect(result.reasons.map((reason) => reason.code)).toEqual(['DANE_NO_REACHABLE_MX']);
    expect(result.reasons[0]?.message).toMatch(
      /^The only MX host of example\.com, gone\.example\.com, has no A or AAAA record\./,
    );
  });

  it('an HTTPS name that does not exist says so in the summary', async () => {
    const result = summariseDaneCheck({
      host: 'www.example.com',
      port: 443,
      protocol: 'https',
      mx: null,
      endpoints: [
        await evaluateDaneEndpoint(endpoint({ ...nxdomainHost, protocol: 'https', port: 443 }), crypto),
      ],
      now,
    });
    expect(result.verdict).toBe('not-applicable');
    expect(result.summary).toBe(
      'www.example.com does not exist (NXDOMAIN): there is no server to check, and DANE does not apply.',
    );
    expect(result.endpoints[0]?.reasons[0]?.message).toMatch(/Clients cannot connect to it/);
  });
});
