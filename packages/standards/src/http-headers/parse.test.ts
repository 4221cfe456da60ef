import { describe, expect, it } from 'vitest';
import { HeaderList } from './headers.ts';
import { parseHeaderBlock } from './parse.ts';

const codes = (text: string) => parseHeaderBlock(text).diagnostics.map((d) => d.code);

describe('parseHeaderBlock', () => {
  it('reads a status line and fields, keeping repeated Set-Cookie lines apart', () => {
    const { responses, diagnostics } = parseHeaderBlock(
      'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2; Secure\r\nVary: Accept\r\nvary: Origin\r\n',
    );
    expect(diagnostics).toEqual([]);
    expect(responses).toHaveLength(1);
    const [response] = responses;
    expect(response?.status).toBe(200);
    expect(response?.statusLine).toBe('HTTP/1.1 200 OK');
    const headers = new HeaderList(response!.fields);
    expect(headers.all('set-cookie')).toEqual(['a=1', 'b=2; Secure']);
    expect(headers.combined('Vary')).toBe('Accept, Origin');
    expect(headers.toRecord()).toEqual({
      'Content-Type': 'text/html',
      'Set-Cookie': 'a=1\nb=2; Secure',
      Vary: 'Accept, Origin',
    });
  });

  it('accepts headers without a status line, and HTTP/2 lines', () => {
    expect(parseHeaderBlock('x-frame-options: DENY').responses[0]).toMatchObject({
      status: null,
      fields: [{ name: 'x-frame-options', value: 'DENY' }],
    });
    expect(parseHeaderBlock('HTTP/2 204\nserver: x').responses[0]?.status).toBe(204);
    expect(parseHeaderBlock(':status: 200\ncontent-type: text/html').responses[0]?.status).toBe(200);
  });

  it('joins obsolete folded lines and warns (RFC 9112 §5.2)', () => {
    const { responses, diagnostics } = parseHeaderBlock(
      "Content-Security-Policy: default-src 'self';\n  script-src 'self'\nX-A: 1",
    );
    expect(responses[0]?.fields[0]?.value).toBe("default-src 'self'; script-src 'self'");
    expect(diagnostics[0]).toMatchObject({ code: 'HEADERS_OBSOLETE_FOLDING', rfc: 'RFC 9112 §5.2' });
  });

  it('reports malformed lines with their place and keeps the rest', () => {
    const text = 'X-Good: 1\nthis line has no colon\nBad Name: 2\nX-Space : 3';
    const { responses, diagnostics } = parseHeaderBlock(text);
    expect(responses[0]?.fields.map((f) => f.name)).toEqual(['X-Good', 'X-Space']);
    expect(diagnostics.map((d) => d.code)).toEqual([
      'HEADERS_LINE_NOT_A_FIELD',
      'HEADERS_INVALID_NAME',
      'HEADERS_SPACE_BEFORE_COLON',
    ]);
    // the span points at line 2
    expect(diagnostics[0]?.span).toEqual({ start: 10, end: 32 });
    expect(diagnostics[0]?.message).toMatch(/^Line 2 /);
  });

  it('reports folding once per field and joins all its lines', () => {
    const { responses, diagnostics } = parseHeaderBlock('X-A: one\n two\n\tthree\nX-B: 1');
    expect(responses[0]?.fields).toEqual([
      { name: 'X-A', value: 'one two three' },
      { name: 'X-B', value: '1' },
    ]);
    expect(diagnostics.map((d) => d.code)).toEqual(['HEADERS_OBSOLETE_FOLDING']);
  });

  it('lists at most 100 problems', () => {
    const { diagnostics } = parseHeaderBlock(`X-A: 1\n${'garbage\n'.repeat(150)}`);
    expect(diagnostics).toHaveLength(101);
    expect(diagnostics.at(-1)).toMatchObject({
      code: 'HEADERS_MORE_PROBLEMS',
      message: '50 more problems in the pasted text are not listed.',
    });
  });

  it('reports a folded line with nothing to continue', () => {
    expect(codes('  orphan: x')).toContain('HEADERS_FOLD_WITHOUT_FIELD');
  });

  it('recognises a pasted request', () => {
    expect(codes('GET / HTTP/1.1\nHost: example.com')).toContain('HEADERS_REQUEST_LINE');
  });

  it('splits a redirect chain into responses and skips interim 1xx ones', () => {
    const { responses, diagnostics } = parseHeaderBlock(
      'HTTP/1.1 100 Continue\n\nHTTP/1.1 301 Moved\nLocation: /a\n\nHTTP/1.1 200 OK\nX-A: 1\n',
    );
    expect(responses.map((r) => r.status)).toEqual([301, 200]);
    expect(diagnostics.map((d) => d.code)).toEqual(['HEADERS_INTERIM_RESPONSE', 'HEADERS_SEVERAL_RESPONSES']);
  });

  it('takes what follows the blank line as the body', () => {
    const { responses } = parseHeaderBlock('HTTP/1.1 200 OK\nContent-Type: text/html\n\n<html>\n<p>x</p>');
    expect(responses[0]?.body).toBe('<html>\n<p>x</p>');
  });

  it('reads on over a stray blank line between fields, with a warning', () => {
    const { responses, diagnostics } = parseHeaderBlock('X-A: 1\n\nX-B: 2');
    expect(responses[0]?.fields.map((f) => f.name)).toEqual(['X-A', 'X-B']);
    expect(diagnostics[0]?.code).toBe('HEADERS_BLANK_LINE');
  });

  it('reads curl -v output from its "<" lines', () => {
    const { responses, diagnostics } = parseHeaderBlock(
      '* Connected\n> GET / HTTP/2\n> Host: example.com\n>\n< HTTP/2 200\n< strict-transport-security: max-age=1\n<\n',
    );
    expect(responses[0]?.status).toBe(200);
    expect(responses[0]?.fields).toEqual([{ name: 'strict-transport-security', value: 'max-age=1' }]);
    expect(diagnostics[0]?.code).toBe('HEADERS_CURL_VERBOSE');
  });

  it('says so when there are no fields at all', () => {
    expect(codes('\n\n')).toEqual(['HEADERS_NONE']);
  });
});
