import { describe, expect, it } from 'vitest';
import { readRsaPublicKey, readSubjectPublicKeyInfo } from './der.ts';
import { parseDkimRecord } from './parse.ts';
import { validateDkimRecord } from './validate.ts';

describe('parseDkimRecord', () => {
  it.each([
    [
      'v=DKIM1; k=rsa; p=AB',
      [
        ['v', 'DKIM1'],
        ['k', 'rsa'],
        ['p', 'AB'],
      ],
    ],
    [
      '  v = DKIM1 ;\tp=AB CD ;',
      [
        ['v', 'DKIM1'],
        ['p', 'AB CD'],
      ],
    ],
    ['p=', [['p', '']]],
    ['n=a=b:c', [['n', 'a=b:c']]],
    [
      '"v=DKIM1; " "p=AB" "CD"',
      [
        ['v', 'DKIM1'],
        ['p', 'ABCD'],
      ],
    ],
    [
      's._domainkey IN TXT ( "v=DKIM1; k=ed25519;"\n "p=AB" )',
      [
        ['v', 'DKIM1'],
        ['k', 'ed25519'],
        ['p', 'AB'],
      ],
    ],
    ['"p=A\\066\\"x"', [['p', 'AB"x']]],
  ])('%j', (input, expected) => {
    const result = parseDkimRecord(input);
    expect(result.tags?.map((tag) => [tag.name, tag.value])).toEqual(expected);
  });

  it('gives the value span in the pasted text', () => {
    const input = '"v=DKIM1; k=" "rsa; p=XY"';
    const tag = parseDkimRecord(input).tags?.find((entry) => entry.name === 'k');
    expect(input.slice(tag?.valueSpan.start, tag?.valueSpan.end)).toBe('rsa');
  });

  it('never throws on mutated records', () => {
    const base =
      'sel._domainkey.example.com. IN TXT ( "v=DKIM1; k=rsa; h=sha256; t=y:s; n=x; s=email; " "p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQoBTzWRiGs5V6NpP3idY6Wk08a5qhdR6wy5bdOKb2jLQiY/J16JYi0Qvx/byYzCNb3W91y3FutACDfzwQ/BC/e/8uBsCR+yz1Lxj+PL6lHvqMKrM3rG4hstT5QjvHO9PzoxZyVYLzBfO2EeC3Ip3G+2kryOTIKT+l/K4w3QIDAQAB" )';
    const alphabet = ' ;="()\\\n=:/+Aa0\u00e9\u0000';
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      let text = base;
      for (let edits = 1 + random(4); edits > 0; edits--) {
        const at = random(text.length);
        const kind = random(3);
        const c = alphabet.charAt(random(alphabet.length));
        text =
          kind === 0
            ? text.slice(0, at) + text.slice(at + 1)
            : kind === 1
              ? text.slice(0, at) + c + text.slice(at)
              : text.slice(0, at) + c + text.slice(at + 1);
      }
      const result = validateDkimRecord(text);
      expect(result.valid).toBe(result.errors.length === 0);
      for (const d of result.diagnostics) {
        if (d.span) expect(d.span.end).toBeLessThanOrEqual(text.length);
      }
    }
  });
});

describe('DER reader', () => {
  const hex = (text: string) => new Uint8Array(text.match(/../g)!.map((byte) => parseInt(byte, 16)));

  it.each([
    ['30050200020103', 'an INTEGER is empty', false],
    ['30060201ff020103', 'negative', false],
    ['300702020001020103', 'shortest form', false],
    ['3008020300ff01020103', null, true],
    ['3081060201050201', 'shortest form', false],
    ['300702', 'truncated', false],
    ['30800201050201030000', 'indefinite', false],
  ])('RSAPublicKey %s', (bytes, error, ok) => {
    const result = readRsaPublicKey(hex(bytes));
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.error).toContain(error);
    else expect(result.value).toEqual({ modulusBits: 16, exponent: 3 });
  });

  it('rejects a SubjectPublicKeyInfo with unused bits or trailing bytes', () => {
    // SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING with 1 unused bit }
    expect(readSubjectPublicKeyInfo(hex('300b300506032b657003020100')).ok).toBe(false);
    expect(readSubjectPublicKeyInfo(hex('300b300506032b65700302000000')).ok).toBe(false);
    expect(readSubjectPublicKeyInfo(hex('300b300506032b657003020000'))).toEqual({
      ok: true,
      value: { algorithm: '1.3.101.112', publicKey: new Uint8Array([0]) },
    });
  });
});
