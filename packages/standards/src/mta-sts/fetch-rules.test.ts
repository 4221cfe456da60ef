import { describe, expect, it } from 'vitest';
import { judgePolicyFetch, type MtaStsPolicyFetchOutcome } from './fetch-rules.ts';

const ok: MtaStsPolicyFetchOutcome = {
  status: 200,
  redirected: false,
  contentType: 'text/plain; charset=utf-8',
  bytes: 90,
  certificateTrusted: true,
  nameMatches: true,
  timedOut: false,
  host: 'mta-sts.example.com',
};

describe('judgePolicyFetch (RFC 8461 §3.3)', () => {
  it('uses a 200 text/plain answer over a trusted, matching certificate', () => {
    expect(judgePolicyFetch(ok)).toEqual({ usable: true, diagnostics: [] });
  });

  it.each([
    [{ status: 301, redirected: true }, 'MTASTS_FETCH_REDIRECT', 'MUST NOT'],
    [{ status: 500 }, 'MTASTS_FETCH_STATUS', 'MUST'],
    [{ nameMatches: false }, 'MTASTS_FETCH_CERT_NAME', 'MUST'],
    [{ certificateTrusted: false }, 'MTASTS_FETCH_CERT_UNTRUSTED', 'MUST'],
    [{ bytes: 70000 }, 'MTASTS_FETCH_TOO_LARGE', undefined],
  ])('refuses %j with %s', (change, code, requirement) => {
    const judgement = judgePolicyFetch({ ...ok, ...change });
    expect(judgement.usable).toBe(false);
    expect(judgement.diagnostics[0]).toMatchObject({ code, rfc: 'RFC 8461 §3.3', severity: 'error' });
    expect(judgement.diagnostics[0]?.requirement).toBe(requirement);
    expect(judgement.diagnostics.at(-1)?.code).toBe('MTASTS_FETCH_NO_POLICY');
  });

  it.each([['text/html'], ['text/html; charset=utf-8'], [null], ['application/octet-stream']])(
    'refuses a policy served as %s, as senders SHOULD (RFC 8461 §3.3)',
    (contentType) => {
      const judgement = judgePolicyFetch({ ...ok, contentType });
      expect(judgement.usable).toBe(false);
      expect(judgement.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
        'MTASTS_FETCH_CONTENT_TYPE',
        'MTASTS_FETCH_NO_POLICY',
      ]);
      expect(judgement.diagnostics[0]).toMatchObject({
        severity: 'error',
        requirement: 'SHOULD',
        rfc: 'RFC 8461 §3.3',
      });
    },
  );

  it('takes text/plain with parameters and in any case', () => {
    for (const contentType of ['text/plain; charset=utf-8', 'Text/Plain']) {
      expect(judgePolicyFetch({ ...ok, contentType })).toEqual({ usable: true, diagnostics: [] });
    }
  });
});
