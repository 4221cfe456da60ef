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

  it('warns about a type other than text/plain but still uses the policy', () => {
    const judgement = judgePolicyFetch({ ...ok, contentType: 'text/html' });
    expect(judgement.usable).toBe(true);
    expect(judgement.diagnostics).toMatchObject([
      { code: 'MTASTS_FETCH_CONTENT_TYPE', severity: 'warning', requirement: 'SHOULD' },
    ]);
  });
});
