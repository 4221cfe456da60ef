import { describe, expect, it } from 'vitest';
import { parseSecurityTxt } from './parse.ts';
import { sectxtSignatureBlock, signedFile } from './test-fixtures.ts';

function codes(text: string | Uint8Array) {
  return parseSecurityTxt(text).diagnostics.map((d) => [d.code, d.line ?? null]);
}

describe('parseSecurityTxt: lines and fields', () => {
  const lf = '# comment\n\nContact: mailto:security@example.com\nexpires: 2030-01-01T00:00:00Z\n';

  it('reads comments, blank lines and fields with 1-based line numbers', () => {
    const document = parseSecurityTxt(lf);
    expect(document.lines.map((l) => [l.number, l.kind])).toEqual([
      [1, 'comment'],
      [2, 'blank'],
      [3, 'field'],
      [4, 'field'],
    ]);
    expect(document.fields.map((f) => [f.name, f.key, f.value, f.line, f.signed])).toEqual([
      ['Contact', 'contact', 'mailto:security@example.com', 3, false],
      ['expires', 'expires', '2030-01-01T00:00:00Z', 4, false],
    ]);
    expect(document.diagnostics).toEqual([]);
    expect(document.signature).toBeNull();
  });

  it('gives spans into the text: the whole line and the value', () => {
    const document = parseSecurityTxt(lf);
    const contact = document.fields[0]!;
    expect(lf.slice(contact.span.start, contact.span.end)).toBe('Contact: mailto:security@example.com');
    expect(lf.slice(contact.valueSpan.start, contact.valueSpan.end)).toBe('mailto:security@example.com');
  });

  it('reads CRLF files like LF files, with spans that exclude the CR', () => {
    const crlf = lf.replaceAll('\n', '\r\n');
    const document = parseSecurityTxt(crlf);
    expect(document.diagnostics).toEqual([]);
    expect(document.fields.map((f) => [f.value, f.line])).toEqual([
      ['mailto:security@example.com', 3],
      ['2030-01-01T00:00:00Z', 4],
    ]);
    const expires = document.fields[1]!;
    expect(crlf.slice(expires.valueSpan.start, expires.valueSpan.end)).toBe('2030-01-01T00:00:00Z');
  });

  it('drops trailing whitespace from values, and treats an all-blank file as having no fields', () => {
    expect(parseSecurityTxt('Contact: https://example.com/c  \t\n').fields[0]?.value).toBe(
      'https://example.com/c',
    );
    expect(parseSecurityTxt('\n\n').fields).toEqual([]);
    expect(parseSecurityTxt('')).toMatchObject({ lines: [], fields: [], diagnostics: [] });
  });

  it('splits at the first colon only: URIs keep theirs', () => {
    expect(parseSecurityTxt('Policy: https://example.com:8443/p\n').fields[0]?.value).toBe(
      'https://example.com:8443/p',
    );
  });
});

describe('parseSecurityTxt: syntax errors carry sectxt codes and lines', () => {
  it.each([
    ['space before the colon', 'Contact : mailto:a@example.com\n', [['prec_ws', 1]]],
    ['no space after the colon', 'Contact:mailto:a@example.com\n', [['no_space', 1]]],
    ['a tab after the colon', 'Contact:\tmailto:a@example.com\n', [['no_space', 1]]],
    ['no name', ': mailto:a@example.com\n', [['empty_key', 1]]],
    ['no value', 'x: y\nContact: \n', [['empty_value', 2]]],
    ['no colon', 'Contact: https://example.com/c\nnot a field\n', [['invalid_line', 2]]],
    ['a name with a space', 'Bug bounty: yes\n', [['invalid_field_name', 1]]],
    ['no final line break', 'Contact: https://example.com/c', [['no_line_separators', 1]]],
    ['no final line break after CRLF lines', 'a: b\r\nc: d', [['no_line_separators', 2]]],
    ['a lone CR inside a line', 'Contact: https://example.com/c\rExpires: x\n', [['cr_without_lf', 1]]],
  ])('%s', (_name, text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it('points the span of an invalid line at the line', () => {
    const text = 'Contact: https://example.com/c\nnot a field\n';
    const [diagnostic] = parseSecurityTxt(text).diagnostics;
    expect(text.slice(diagnostic!.span!.start, diagnostic!.span!.end)).toBe('not a field');
    expect(diagnostic).toMatchObject({ severity: 'error', requirement: 'MUST', rfc: 'RFC 9116 §4' });
  });

  it('keeps a field whose only problem is spacing', () => {
    const document = parseSecurityTxt('Contact :mailto:a@example.com\n');
    expect(document.fields[0]).toMatchObject({ name: 'Contact', value: 'mailto:a@example.com' });
    expect(document.diagnostics.map((d) => d.code)).toEqual(['prec_ws', 'no_space']);
  });
});

describe('parseSecurityTxt: encoding', () => {
  it('reports a BOM in a string once, and reads the first field without it', () => {
    const document = parseSecurityTxt('\uFEFFContact: https://example.com/c\n');
    expect(document.diagnostics.map((d) => d.code)).toEqual(['bom_in_file']);
    expect(document.fields[0]?.key).toBe('contact');
    expect(document.lines[0]?.start).toBe(1);
  });

  it('reports a BOM in bytes', () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('Contact: https://example.com/c\n'),
    ]);
    const document = parseSecurityTxt(bytes);
    expect(document.diagnostics.map((d) => d.code)).toEqual(['bom_in_file']);
    expect(document.fields[0]?.key).toBe('contact');
  });

  it('reports bytes that are not UTF-8 and reads on with replacement characters', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('Contact: https://example.com/'), 0xff, 0x0a]);
    const document = parseSecurityTxt(bytes);
    expect(document.diagnostics.map((d) => [d.code, d.line ?? null])).toEqual([['utf8', null]]);
    expect(document.fields[0]?.value).toBe('https://example.com/\uFFFD');
  });

  it('reads valid multi-byte UTF-8', () => {
    const document = parseSecurityTxt(
      new TextEncoder().encode('# Sécurité\nContact: https://example.com/c\n'),
    );
    expect(document.diagnostics).toEqual([]);
    expect(document.lines[0]?.text).toBe('# Sécurité');
  });
});

describe('parseSecurityTxt: the OpenPGP cleartext signature framework', () => {
  const text = signedFile('2030-01-01T00:00:00Z', ['- Policy: https://example.com/policy']);

  it('reads the header, Hash headers, dash-escaped text and the signature block', () => {
    const document = parseSecurityTxt(text);
    expect(document.diagnostics).toEqual([]);
    expect(document.signature).toMatchObject({
      headerLine: 1,
      hashes: ['SHA256'],
      signatureLine: 9,
      endLine: 17,
    });
    expect(document.fields.map((f) => [f.key, f.value, f.line, f.signed])).toEqual([
      ['canonical', 'https://example.com/.well-known/security.txt', 4, true],
      ['contact', 'mailto:security@example.com', 5, true],
      ['encryption', 'https://example.com/pgp-key.txt', 6, true],
      ['policy', 'https://example.com/policy', 7, true],
      ['expires', '2030-01-01T00:00:00Z', 8, true],
    ]);
    expect(document.lines.map((l) => l.kind)).toEqual([
      'signed-header',
      'signed-header',
      'signed-header',
      ...Array(5).fill('field'),
      ...Array(9).fill('signature'),
    ]);
  });

  it('hands the verifier the message exactly as signed, header line to END line', () => {
    expect(parseSecurityTxt(text).signature?.message).toBe(text);
    const crlf = text.replaceAll('\n', '\r\n');
    expect(parseSecurityTxt(crlf).signature?.message).toBe(`${crlf.slice(0, -2)}\n`);
  });

  it('reads the signature packet: version, hash, issuer key ID and creation time', () => {
    expect(parseSecurityTxt(text).signature?.signatures).toEqual([
      {
        version: 4,
        signatureType: 1,
        publicKeyAlgorithm: 1,
        hashAlgorithm: 'SHA256',
        keyId: '3B3880F3281B5D1D',
        fingerprint: null,
        created: '2023-07-31T08:32:44.000Z',
      },
    ]);
  });

  it('reports the header when it is not on line 1, and still reads the signed part', () => {
    const document = parseSecurityTxt(`\n${text}`);
    expect(document.diagnostics.map((d) => [d.code, d.line])).toEqual([['signed_format_issue', 2]]);
    expect(document.signature?.headerLine).toBe(2);
    expect(document.signature?.message).toBe(text);
  });

  it('reports text after the signature, and empty lines after it as too many line separators', () => {
    expect(codes(`${text}Contact: https://evil.example/\n`)).toEqual([['data_after_sig', 18]]);
    // sectxt counts the position after the last line break as a line: 17 lines, 18 empty, 19
    expect(codes(`${text}\n`)).toEqual([['too_many_line_separators', 19]]);
  });

  it('requires an empty line after the Hash headers and allows no other armour header', () => {
    expect(codes(text.replace('Hash: SHA256\n\n', 'Hash: SHA256\n'))).toEqual([['pgp_data_error', 3]]);
    expect(codes(text.replace('Hash: SHA256\n', 'Hash: SHA256\nCharset: UTF-8\n'))).toEqual([
      ['pgp_data_error', 3],
    ]);
  });

  it('reads several Hash headers and comma-separated values', () => {
    const document = parseSecurityTxt(text.replace('Hash: SHA256\n', 'Hash: SHA512, sha256\nHash: SHA384\n'));
    expect(document.signature?.hashes).toEqual(['SHA512', 'SHA256', 'SHA384']);
  });

  it('reports a signed message without a signature block on its header line', () => {
    const cut = text.slice(0, text.indexOf(sectxtSignatureBlock[0]!));
    expect(codes(cut)).toEqual([['pgp_data_error', 1]]);
    expect(parseSecurityTxt(cut).signature?.message).toBeNull();
  });

  it('reports a signature block without its END line on the BEGIN line', () => {
    const cut = text.replace('-----END PGP SIGNATURE-----\n', '');
    expect(codes(cut)).toEqual([['pgp_data_error', 9]]);
    expect(parseSecurityTxt(cut).signature?.message).toBeNull();
  });

  it('reads signature lines as text when the BEGIN PGP SIGNATURE line is missing (as sectxt)', () => {
    const cut = text.replace('-----BEGIN PGP SIGNATURE-----\n', '');
    expect(codes(cut)).toEqual([
      ['invalid_line', 11],
      ['invalid_line', 12],
      ['invalid_line', 13],
      ['invalid_line', 14],
      ['invalid_line', 15],
      ['invalid_line', 16],
      ['pgp_data_error', 1],
    ]);
    expect(parseSecurityTxt(cut).fields.map((f) => f.key)).toContain('version');
  });

  it('treats a BEGIN PGP SIGNATURE line in an unsigned file as an invalid line', () => {
    expect(codes(`Contact: https://example.com/c\n${sectxtSignatureBlock[0]}\n`)).toEqual([
      ['invalid_line', 2],
    ]);
  });
});
