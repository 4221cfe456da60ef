import { describe, expect, it } from 'vitest';
import { generateTlsRptRecord } from './generate.ts';

describe('generateTlsRptRecord', () => {
  it.each([
    [
      'example.com',
      ['mailto:tlsrpt@example.com'],
      'v=TLSRPTv1; rua=mailto:tlsrpt@example.com',
      '_smtp._tls.example.com',
    ],
    [
      'Example.COM.',
      ['mailto:a@example.com', '', ' https://tlsrpt.example.net/v1 ', 'mailto:a@example.com'],
      'v=TLSRPTv1; rua=mailto:a@example.com,https://tlsrpt.example.net/v1',
      '_smtp._tls.example.com',
    ],
  ])('%s %j gives %s at %s', (domain, reportingUris, record, name) => {
    const outcome = generateTlsRptRecord({ domain, reportingUris });
    expect(outcome).toEqual({
      ok: true,
      result: { record, name, zoneLine: `${name}. IN TXT "${record}"` },
    });
  });

  it.each([
    ['', ['mailto:a@example.com'], 'Domain is required'],
    ['example.com', [''], 'Enter at least one reporting URI (mailto: or https:)'],
    [
      'example.com',
      ['a@example.com'],
      "Reporting URI 'a@example.com' has no scheme: write it as mailto:a@example.com",
    ],
    [
      'example.com',
      ['http://r.example.com/'],
      "Reporting URI 'http://r.example.com/' uses http:, which TLS-RPT does not allow: reports are posted over https: only",
    ],
    [
      'example.com',
      ['https://r.example.com/a,b'],
      "Reporting URI 'https://r.example.com/a,b' contains ',' or '!': percent-encode it (%2C, %21)",
    ],
  ])('%j %j is refused: %s', (domain, reportingUris, error) => {
    expect(generateTlsRptRecord({ domain, reportingUris })).toEqual({ ok: false, error });
  });
});
