import { describe, expect, it } from 'vitest';
import { validateTlsa } from './validate.ts';
import { tlsaParametersLine } from './fields.ts';

// RFC 6698 §2.3 examples as ../shared/conformance/vectors.md §5 gives them
const example1 = `_443._tcp.www.example.com. IN TLSA (
      0 0 1 d2abde240d7cd3ee6b4b28c54df034b9
            7983a1d16e8a410e4561cb106618e971 )`;
const example2 = `_443._tcp.www.example.com. IN TLSA (
      1 1 2 92003ba34942dc74152e2f2c408d29ec
            a5a520e7f2e06bb944f4dca346baf63c
            1b177615d466f6c4b71c216a50292bd5
            8c9ebdd2f74e38fe51ffd48c43326cbc )`;
const example3 = `_443._tcp.www.example.com. IN TLSA (
      2 0 0 30820307308201efa003020102020 )`;
const derived311 =
  '_25._tcp.www.example.com. IN TLSA 3 1 1 75b946f1b6efb49f10f03f1617302e482a105c2e6d5baae2c2fc4a9676fcafab';
// the derived vector's SubjectPublicKeyInfo (vectors.md §6, 3 1 0)
const derivedSpki =
  '3059301306072a8648ce3d020106082a8648ce3d03010703420004e16d3dbfcfb645ca0d385b105cd09306cc253e79e676fe455fd2a5d3dc8686d1770a295cb38d547842ecd54c67a7a1d577f2dffb2aac22c500e175af66cbdb90';

const codes = (text: string) => validateTlsa(text).diagnostics.map((d) => d.code);

describe('validateTlsa: RFC 6698 §2.3 examples', () => {
  it('reads example 1 (0 0 1, wrapped in parentheses)', () => {
    const result = validateTlsa(example1);
    expect(result.valid).toBe(true);
    expect(result.parsed).toMatchObject({
      owner: { name: '_443._tcp.www.example.com.', port: 443, protocol: 'tcp', host: 'www.example.com.' },
      usage: 0,
      selector: 0,
      matchingType: 1,
      parameters: 'PKIX-TA Cert SHA2-256',
      data: 'd2abde240d7cd3ee6b4b28c54df034b97983a1d16e8a410e4561cb106618e971',
      dataOctets: 32,
    });
  });

  it('reads example 2 (1 1 2, 64 octets)', () => {
    const result = validateTlsa(example2);
    expect(result.valid).toBe(true);
    expect(result.parsed?.data).toBe(
      '92003ba34942dc74152e2f2c408d29eca5a520e7f2e06bb944f4dca346baf63c1b177615d466f6c4b71c216a50292bd58c9ebdd2f74e38fe51ffd48c43326cbc',
    );
    expect(result.parsed?.parameters).toBe('PKIX-EE SPKI SHA2-512');
  });

  it('parses example 3 (2 0 0) and flags its elided data as no DER certificate', () => {
    // odd-length as printed in the RFC: it elides the certificate
    expect(codes(example3)).toEqual(['TLSA_DATA_ODD_LENGTH']);
    const even = validateTlsa('_443._tcp.www.example.com. IN TLSA 2 0 0 30820307308201efa00302010202');
    expect(even.parsed).toMatchObject({ usage: 2, selector: 0, matchingType: 0 });
    expect(even.diagnostics.map((d) => d.code)).toContain('TLSA_FULL_DATA_NOT_CERTIFICATE');
    expect(even.valid).toBe(false);
  });

  it('accepts the derived 3 1 1 record and names it the recommended form', () => {
    const result = validateTlsa(derived311);
    expect(result.valid).toBe(true);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['TLSA_RECOMMENDED_FORM']);
    expect(result.parsed?.record).toBe(derived311);
  });

  it('accepts bare RDATA and a full SPKI (3 1 0) that is real DER', () => {
    expect(validateTlsa(`3 1 0 ${derivedSpki}`)).toMatchObject({
      valid: true,
      parsed: { owner: null, dataOctets: 91 },
    });
    expect(codes(`3 1 0 ${derivedSpki}`)).toContain('TLSA_FULL_DATA_LARGE');
    expect(codes(`3 1 0 ${derivedSpki.slice(0, -2)}`)).toContain('TLSA_FULL_DATA_NOT_SPKI');
  });
});

describe('validateTlsa: bad records', () => {
  const digest = '75b946f1b6efb49f10f03f1617302e482a105c2e6d5baae2c2fc4a9676fcafab';
  it.each([
    ['', 'TLSA_REQUIRED'],
    [`3 1 1 ${digest.slice(0, 62)}`, 'TLSA_DIGEST_LENGTH'],
    [`3 1 2 ${digest}`, 'TLSA_DIGEST_LENGTH'],
    [`3 1 1 ${digest.slice(0, 63)}`, 'TLSA_DATA_ODD_LENGTH'],
    [`3 1 1 ${digest.slice(0, 62)}zz`, 'TLSA_DATA_NOT_HEX'],
    ['3 1 1', 'TLSA_DATA_MISSING'],
    ['3 1', 'TLSA_FIELD_MISSING'],
    [`256 1 1 ${digest}`, 'TLSA_FIELD_INVALID'],
    [`4 1 1 ${digest}`, 'TLSA_USAGE_UNASSIGNED'],
    [`3 2 1 ${digest}`, 'TLSA_SELECTOR_UNASSIGNED'],
    [`3 1 3 ${digest}`, 'TLSA_MATCHING_TYPE_UNASSIGNED'],
    [`_25._tcp.mx.example.com. IN TLSA 1 1 1 ${digest}`, 'TLSA_PKIX_USAGE_ON_SMTP'],
    [`_25._tcp.mx.example.com. IN TLSA 0 0 1 ${digest}`, 'TLSA_PKIX_USAGE_ON_SMTP'],
    [`mx.example.com. IN TLSA 3 1 1 ${digest}`, 'TLSA_OWNER_FORM'],
    [`_25._smtp.mx.example.com. IN TLSA 3 1 1 ${digest}`, 'TLSA_OWNER_PROTOCOL'],
    [`_99999._tcp.mx.example.com. IN TLSA 3 1 1 ${digest}`, 'TLSA_OWNER_FORM'],
    [`mx.example.com. IN MX 10 mail.example.com.`, 'TLSA_WRONG_TYPE'],
    [`3 1 1 ${digest}\n3 1 1 ${digest}`, 'TLSA_MULTIPLE_RECORDS'],
    [`(3 1 1 ${digest}`, 'TLSA_SYNTAX'],
  ])('%j gives %s', (text, code) => {
    const result = validateTlsa(text);
    expect(result.diagnostics.map((d) => d.code)).toContain(code);
    const diagnostic = result.diagnostics.find((d) => d.code === code);
    expect(diagnostic?.severity).toBe('error');
    expect(diagnostic?.fix).toBeTruthy();
    expect(result.valid).toBe(false);
  });

  it('names each field of unassigned parameters, and keeps the acronyms of assigned ones', () => {
    expect(validateTlsa(`4 2 3 ${digest}`).parsed?.parameters).toBe(
      'usage 4 (unassigned), selector 2 (unassigned), matching type 3 (unassigned)',
    );
    expect(tlsaParametersLine(3, 255, 1)).toBe(
      'usage 3 (DANE-EE), selector 255 (private use), matching type 1 (SHA2-256)',
    );
    expect(tlsaParametersLine(3, 1, 1)).toBe('3 1 1 (DANE-EE SPKI SHA2-256)');
    expect(
      validateTlsa(`4 1 1 ${digest}`).diagnostics.find((d) => d.code === 'TLSA_USAGE_UNASSIGNED')?.message,
    ).toMatch(/^The certificate usage 4 is unassigned/);
  });

  it('holds usages 0 and 1 unusable only for SMTP between MTAs: port 25 over TCP', () => {
    expect(codes(`_25._tcp.mx.example.com. IN TLSA 1 1 1 ${digest}`)).toContain('TLSA_PKIX_USAGE_ON_SMTP');
    expect(codes(`_587._tcp.mx.example.com. IN TLSA 1 1 1 ${digest}`)).not.toContain(
      'TLSA_PKIX_USAGE_ON_SMTP',
    );
  });

  it('points the span at the field in error', () => {
    const text = `_443._tcp.www.example.com. 3600 IN TLSA 9 1 1 ${digest}`;
    const diagnostic = validateTlsa(text).diagnostics.find((d) => d.code === 'TLSA_USAGE_UNASSIGNED');
    expect(text.slice(diagnostic?.span?.start, diagnostic?.span?.end)).toBe('9');
  });

  it('warns of 3 0 1 (a whole certificate breaks at renewal) and of private-use values', () => {
    expect(
      validateTlsa(`3 0 1 ${digest}`).diagnostics.find((d) => d.code === 'TLSA_EE_WHOLE_CERTIFICATE')
        ?.severity,
    ).toBe('warning');
    expect(codes(`255 1 1 ${digest}`)).toContain('TLSA_USAGE_PRIVATE');
    expect(codes(`2 1 1 ${digest}`)).toContain('TLSA_TA_IN_CHAIN');
  });
});
