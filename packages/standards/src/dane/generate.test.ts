import { describe, expect, it } from 'vitest';
import { webCryptoProvider } from '../core/crypto.ts';
import { generateTlsa } from './generate.ts';
import { derivedTlsaCertificate } from './test-certificate.ts';
import { validateTlsaWithChain } from './validate.ts';

const crypto = webCryptoProvider()!;
// ../shared/conformance/dnssec-dane/derived-tlsa-cert.pem (public domain) and its digests published in
// ../shared/conformance/vectors.md §6
const derivedPem = derivedTlsaCertificate.pem;
const expected = {
  '3 0 1': 'cc34ab0268dd712601741b58510cd988537838d7936519115b9f2791eb0e9ec7',
  '3 0 2':
    '172af5ca6ef14b949640a3a30695fa6d4840a7620f5f72e1e9a9e49356f54aab2b2d1eecacfaccc1c1b84daf6071c33e1dc82a978c1ba5a3ac10e1e848cfb624',
  '3 1 1': '75b946f1b6efb49f10f03f1617302e482a105c2e6d5baae2c2fc4a9676fcafab',
  '3 1 2':
    'fbc60d5e5a0516ac2911f8dfb29d2af2f617530dd5907c2347c2b1ebec7068811796514f60ce17b2d0065873deb32244652a443251862b369f9145eda85dee47',
  '3 1 0':
    '3059301306072a8648ce3d020106082a8648ce3d03010703420004e16d3dbfcfb645ca0d385b105cd09306cc253e79e676fe455fd2a5d3dc8686d1770a295cb38d547842ecd54c67a7a1d577f2dffb2aac22c500e175af66cbdb90',
};

describe('generateTlsa: derived vector (vectors.md §6)', () => {
  it('computes every published digest and the expected 3 1 1 record', async () => {
    const outcome = await generateTlsa({ chain: derivedPem, host: 'www.example.com' }, crypto);
    if (!outcome.ok) throw new Error(outcome.error);
    const { result } = outcome;
    for (const [parameters, data] of Object.entries(expected)) {
      const record = result.records.find((r) => `${r.usage} ${r.selector} ${r.matchingType}` === parameters);
      expect(record?.data, parameters).toBe(data);
    }
    expect(
      result.records.find((r) => r.usage === 3 && r.selector === 0 && r.matchingType === 0)?.data.length,
    ).toBe(425 * 2);
    expect(result.selected.record).toBe(
      '_25._tcp.www.example.com. IN TLSA 3 1 1 75b946f1b6efb49f10f03f1617302e482a105c2e6d5baae2c2fc4a9676fcafab',
    );
    expect(result.selected.recommended).toBe(true);
    expect(result.owner).toBe('_25._tcp.www.example.com.');
    expect(result.certificates[0]).toMatchObject({
      index: 0,
      subject: 'CN=www.example.com',
      selfIssued: true,
      notBefore: expect.stringMatching(/^2026-11-22/),
      notAfter: expect.stringMatching(/^2036-11-19/),
    });
    // a lone certificate gives no CA records (usages 0 and 2)
    expect(new Set(result.records.map((r) => r.usage))).toEqual(new Set([1, 3]));
    expect(result.records).toHaveLength(12);
    expect(result.note).toMatch(/usages 0 and 2/);
    expect(result.rollover.join(' ')).toMatch(/RFC 7671 §8.1/);
  });

  it('builds the owner from port and protocol, and refuses a CA usage without a CA', async () => {
    const https = await generateTlsa(
      { chain: derivedPem, host: 'WWW.example.com.', port: 443, protocol: 'udp' },
      crypto,
    );
    expect(https.ok && https.result.owner).toBe('_443._udp.www.example.com.');
    const ta = await generateTlsa({ chain: derivedPem, host: 'www.example.com', usage: 2 }, crypto);
    expect(ta).toMatchObject({ ok: false, error: expect.stringMatching(/only the server certificate/) });
  });

  it('marks usages 0 and 1 unusable for SMTP between MTAs (port 25 only) and warns when one is chosen', async () => {
    const relay = await generateTlsa({ chain: derivedPem, host: 'mx.example.com', usage: 1 }, crypto);
    if (!relay.ok) throw new Error(relay.error);
    const unusable = relay.result.records.filter((r) => r.unusable !== null).map((r) => r.usage);
    expect(new Set(unusable)).toEqual(new Set([1]));
    expect(unusable).toHaveLength(6);
    expect(relay.result.records.find((r) => r.usage === 1)?.unusable).toBe(
      'Unusable for SMTP (RFC 7672 §3.1.3)',
    );
    expect(relay.result.selected.unusable).not.toBeNull();
    expect(relay.result.warning).toMatch(
      /Usage 1 \(PKIX-EE\) is unusable for SMTP .*RFC 7672 §3.1.3.*3 1 1.*2 1 1/,
    );
    const chosen311 = await generateTlsa({ chain: derivedPem, host: 'mx.example.com' }, crypto);
    expect(chosen311.ok && chosen311.result.warning).toBeUndefined();
    // submission (587, 465) and HTTPS are outside RFC 7672's scope: RFC 7671 allows PKIX usages there
    for (const port of [587, 465, 443]) {
      const other = await generateTlsa({ chain: derivedPem, host: 'mx.example.com', port, usage: 1 }, crypto);
      if (!other.ok) throw new Error(other.error);
      expect(
        other.result.records.every((r) => r.unusable === null),
        String(port),
      ).toBe(true);
      expect(other.result.warning, String(port)).toBeUndefined();
    }
  });

  it.each([
    ['-----BEGIN PRIVATE KEY-----\nMIGHAgEA\n-----END PRIVATE KEY-----', /must never be pasted/],
    ['-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----', /must never be pasted/],
    ['-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----', /signing request/],
    ['hello world', /No certificate found/],
    ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', /not an X.509 certificate/],
  ])('refuses %j', async (chain, message) => {
    const outcome = await generateTlsa({ chain, host: 'www.example.com' }, crypto);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(message);
  });
});

describe('validateTlsaWithChain', () => {
  it('says the derived 3 1 1 record matches the server certificate', async () => {
    const result = await validateTlsaWithChain(
      { record: `3 1 1 ${expected['3 1 1']}`, chain: derivedPem },
      crypto,
    );
    expect(result.valid).toBe(true);
    expect(result.recordValid).toBe(true);
    expect(result.chain).toMatchObject({ matching: [0], matched: 0 });
    expect(result.diagnostics.map((d) => d.code)).toContain('TLSA_CHAIN_MATCH');
  });

  it('reports a digest that matches nothing, and a usage at the wrong position', async () => {
    const wrong = await validateTlsaWithChain(
      { record: `3 1 1 ${'00'.repeat(32)}`, chain: derivedPem },
      crypto,
    );
    expect(wrong.valid).toBe(false);
    // the record itself is well-formed: only the match with the chain failed
    expect(wrong.recordValid).toBe(true);
    expect(wrong.diagnostics.find((d) => d.code === 'TLSA_CHAIN_NO_MATCH')?.severity).toBe('error');
    expect(wrong.chain).toMatchObject({ matching: [], matched: null });
    expect(wrong.diagnostics.map((d) => d.code)).toContain('TLSA_CHAIN_NO_MATCH');
    const misplaced = await validateTlsaWithChain(
      { record: `2 1 1 ${expected['3 1 1']}`, chain: derivedPem },
      crypto,
    );
    expect(misplaced.diagnostics.find((d) => d.code === 'TLSA_CHAIN_WRONG_POSITION')?.fix).toMatch(/usage 3/);
  });

  it('reports an unreadable chain without losing the record checks', async () => {
    const result = await validateTlsaWithChain(
      { record: `3 1 1 ${expected['3 1 1']}`, chain: 'not pem' },
      crypto,
    );
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TLSA_RECOMMENDED_FORM', 'TLSA_CHAIN_UNREADABLE']);
    expect(result.parsed?.usage).toBe(3);
  });
});
