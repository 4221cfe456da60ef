import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createFixtureResolver, type FixtureZones } from '@rfckit/standards';
import { verifyMessage } from '../../apps/server/src/tools/dkim/verify-message.ts';

const dir = path.join(process.env.CONFORMANCE_DIR!, 'dkim');
const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');

interface ExpectedSignature {
  s: string;
  a?: string;
  reason?: string;
  state: 'SUCCESS' | 'PERMFAIL';
  ar: string[];
}

interface VerificationCase {
  id: string;
  file: string;
  now: number;
  dns: Record<string, string>;
  expect: ExpectedSignature[];
  rfc_basis: string;
  observed_mailauth: string[];
}

const { cases } = JSON.parse(read('cases.json')) as { cases: VerificationCase[] };

/** The reason our verifier gives for each README reason, where the wording differs. */
const reasonWords: Record<string, RegExp> = {
  'body hash did not verify': /^body hash did not verify$/,
  'signature did not verify': /^signature did not verify$/,
  'no key for signature (NXDOMAIN)': /^no key for signature \(NXDOMAIN\)$/,
  'no key for signature': /^no key for signature/,
  'key revoked': /^key revoked$/,
  'RSA key < 1024 bits': /^RSA key of 512 bits is under the 1024-bit minimum$/,
  'a=rsa-sha1 is not acceptable': /^rsa-sha1 MUST NOT be used$/,
  'signature expired': /^signature expired$/,
  'v= present but not DKIM1 => record invalid': /key version/,
  'key h= does not allow sha256 (inappropriate hash algorithm)': /inappropriate hash algorithm/,
  'key s=tlsrpt is not for email (service type)': /not for email/,
  'k=rsa does not match a=ed25519-sha256 (inappropriate key algorithm)': /key type|key algorithm/,
};

function zonesOf(dns: Record<string, string>): FixtureZones {
  // the fixture resolver serves a long text as 255-octet strings, as the manifest asks
  return Object.fromEntries(Object.entries(dns).map(([name, text]) => [name, { TXT: text }]));
}

describe('DKIM message verification (dkim/cases.json)', () => {
  it('has the 18 published cases', () => {
    assert.equal(cases.length, 18);
  });

  for (const testCase of cases) {
    it(`${testCase.id}: ${testCase.rfc_basis}`, async () => {
      const result = await verifyMessage(read(testCase.file), {
        resolver: createFixtureResolver(zonesOf(testCase.dns)),
        now: new Date(testCase.now * 1000),
      });
      assert.equal(result.signatures.length, testCase.expect.length);
      if (testCase.expect.length === 0) assert.equal(result.summary.result, 'none');

      testCase.expect.forEach((expected, index) => {
        const signature = result.signatures[index]!;
        assert.equal(signature.s, expected.s);
        if (expected.a) assert.equal(signature.a, expected.a);
        // our answer must be one of the Authentication-Results words the case allows for its state
        assert.ok(
          expected.ar.includes(signature.result),
          `${expected.s}: ${signature.result} (${signature.reason}) is not one of ${expected.ar.join(', ')}`,
        );
        assert.equal(signature.result === 'pass', expected.state === 'SUCCESS');
        if (expected.reason) {
          const words = reasonWords[expected.reason];
          assert.ok(words, `no wording known for '${expected.reason}'`);
          assert.match(signature.reason ?? '', words);
        }
      });
    });
  }

  // RFC 8301 where mailauth's recorded answer differs from the case's expected state
  it('derived-rsa-sha1: mailauth 7.1.0 was recorded passing rsa-sha1; we fail it per RFC 8301 §3.1', async () => {
    const testCase = cases.find((c) => c.id === 'derived-rsa-sha1')!;
    assert.match(testCase.observed_mailauth[0]!, /^pass/);
    const result = await verifyMessage(read(testCase.file), {
      resolver: createFixtureResolver(zonesOf(testCase.dns)),
      now: new Date(testCase.now * 1000),
    });
    const [signature] = result.signatures;
    assert.equal(signature!.result, 'fail');
    assert.equal(signature!.rfc, 'RFC 8301 §3.1');
    assert.equal(signature!.reason, 'rsa-sha1 MUST NOT be used');
  });

  it('derived-rsa512: mailauth was recorded as policy; we fail it per RFC 8301 §3.2 and measure the key', async () => {
    const testCase = cases.find((c) => c.id === 'derived-rsa512')!;
    assert.match(testCase.observed_mailauth[0]!, /^policy/);
    const result = await verifyMessage(read(testCase.file), {
      resolver: createFixtureResolver(zonesOf(testCase.dns)),
      now: new Date(testCase.now * 1000),
    });
    const [signature] = result.signatures;
    assert.equal(signature!.result, 'fail');
    assert.equal(signature!.rfc, 'RFC 8301 §3.2');
    assert.equal(signature!.key?.size, 512);
  });
});

/** The A.2 zone file as fixture data, each record's character-strings kept as written. */
function rfc8463Zone(): FixtureZones {
  const zones: FixtureZones = {};
  for (const chunk of read('rfc8463-dns.zone').split(/\n\s*\n/)) {
    const owner = /^(\S+)\s+IN\s+TXT/m.exec(chunk)?.[1];
    if (!owner) continue;
    const strings = [...chunk.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    zones[owner.replace(/\.$/, '')] = { TXT: [strings] };
  }
  return zones;
}

describe('RFC 8463 vectors with the A.2 zone file (dkim/rfc8463-*.eml)', () => {
  const zones = rfc8463Zone();
  const now = new Date(1528637909 * 1000);
  const verify = (file: string) => verifyMessage(read(file), { resolver: createFixtureResolver(zones), now });

  it('serves the RSA key as four strings, which the verifier joins', () => {
    const txt = zones['test._domainkey.football.example.com']?.TXT as string[][];
    assert.equal(txt[0]!.length, 4);
  });

  it('signed: both signatures pass, with the fields of A.3', async () => {
    const result = await verify('rfc8463-signed.eml');
    assert.deepEqual(
      result.signatures.map((s) => [s.d, s.s, s.a, s.c, s.result]),
      [
        ['football.example.com', 'brisbane', 'ed25519-sha256', 'relaxed/relaxed', 'pass'],
        ['football.example.com', 'test', 'rsa-sha256', 'relaxed/relaxed', 'pass'],
      ],
    );
    assert.deepEqual(
      result.signatures.map((s) => [s.key?.type, s.key?.size, s.bodyHash.match, s.signedAt]),
      [
        ['ed25519', 256, true, '2018-06-10T13:38:29.000Z'],
        ['rsa', 1024, true, '2018-06-10T13:38:29.000Z'],
      ],
    );
    // the RSA-1024 key passes with the RFC 8301 §3.2 SHOULD from the key-record validator
    assert.ok(result.signatures[1]!.key!.diagnostics.some((d) => d.code === 'DKIM_RSA_SHORT'));
    assert.equal(result.summary.result, 'pass');
  });

  it('body tampered: both fail, body hash did not verify', async () => {
    const result = await verify('rfc8463-body-tampered.eml');
    for (const signature of result.signatures) {
      assert.equal(signature.result, 'fail');
      assert.equal(signature.reason, 'body hash did not verify');
      assert.equal(signature.bodyHash.match, false);
    }
    assert.equal(result.signatures.length, 2);
  });

  it('header tampered: both fail, signature did not verify', async () => {
    const result = await verify('rfc8463-header-tampered.eml');
    assert.deepEqual(
      result.signatures.map((s) => [s.result, s.reason, s.bodyHash.match]),
      [
        ['fail', 'signature did not verify', true],
        ['fail', 'signature did not verify', true],
      ],
    );
  });

  it('relaxed whitespace: both still pass', async () => {
    const result = await verify('rfc8463-relaxed-whitespace.eml');
    assert.deepEqual(
      result.signatures.map((s) => s.result),
      ['pass', 'pass'],
    );
  });

  it('unsigned: no signatures, dkim=none', async () => {
    const result = await verify('rfc8463-unsigned.eml');
    assert.deepEqual(result.signatures, []);
    assert.equal(result.summary.result, 'none');
  });
});
