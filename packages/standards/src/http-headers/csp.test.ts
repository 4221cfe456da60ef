import { describe, expect, it } from 'vitest';
import { CspSyntaxError, cspTest, parseCspPolicies } from './csp.ts';

const sources = (policies: string[], directive: string) => [
  ...(parseCspPolicies(policies).directives.get(directive) ?? []),
];

function run(header: string | string[], meta: string[] = [], https = true) {
  return cspTest({
    headerValues: Array.isArray(header) ? header : [header],
    metaValues: meta,
    reportOnly: false,
    https,
  });
}

describe('parseCspPolicies', () => {
  it('lower-cases directives and sources, and reads an empty source list as none', () => {
    expect(sources(["Default-Src 'SELF' HTTPS://CDN.Example.com; script-src"], 'default-src')).toEqual([
      "'self'",
      'https://cdn.example.com',
    ]);
    expect(sources(["default-src 'self'; script-src"], 'script-src')).toEqual(["'none'"]);
  });

  it('refuses a repeated directive but tolerates repeated report-uri', () => {
    expect(() => parseCspPolicies(["script-src 'self'; script-src 'none'"])).toThrow(CspSyntaxError);
    expect(parseCspPolicies(["default-src 'self'; report-uri /a; report-uri /b"]).duplicates).toEqual(
      new Set(['report-uri']),
    );
  });

  it('refuses empty and too short policies', () => {
    expect(() => parseCspPolicies([''])).toThrow(/empty/);
    expect(() => parseCspPolicies(['a b'])).toThrow(/too short/);
  });

  it('refuses more policies than any site sends', () => {
    expect(() => parseCspPolicies(Array.from({ length: 33 }, () => "default-src 'self'"))).toThrow(
      /33 policies: more than the 32/,
    );
  });

  it('compares paths with %-escapes decoded', () => {
    // the second policy narrows /~docs/ to one file under it, written with an escape
    expect(
      sources(
        ['script-src https://a.example/%7Edocs/', 'script-src https://a.example/~docs/app.js'],
        'script-src',
      ),
    ).toEqual(['https://a.example/~docs/app.js']);
  });

  it('keeps only what every policy allows', () => {
    expect(sources(["default-src 'self' https://a.example", "default-src 'self'"], 'default-src')).toEqual([
      "'self'",
    ]);
    // as the Observatory merges: a directive that the first policy lacks allows nothing
    expect(sources(["default-src 'self'", "script-src 'self'"], 'script-src')).toEqual(["'none'"]);
  });
});

describe('cspTest', () => {
  it("drops 'unsafe-inline' when a nonce or hash is present", () => {
    expect(run("default-src 'self'; script-src 'nonce-r4nd0m' 'unsafe-inline'").result).toBe(
      'csp-implemented-with-no-unsafe',
    );
  });

  it("accepts 'strict-dynamic' with a nonce, which voids host and scheme sources", () => {
    const outcome = run(
      "default-src 'self'; script-src 'strict-dynamic' 'nonce-r4nd0m' https: 'unsafe-inline'",
    );
    expect(outcome.result).toBe('csp-implemented-with-no-unsafe');
    expect(outcome.policy?.['script-src']).toEqual(["'nonce-r4nd0m'", "'strict-dynamic'"]);
  });

  it("calls 'strict-dynamic' without a nonce or hash invalid", () => {
    const outcome = run("default-src 'self'; script-src 'strict-dynamic' https:");
    expect(outcome.result).toBe('csp-header-invalid');
    expect(outcome.pass).toBe(false);
  });

  it('treats missing script-src and default-src as allowing any script', () => {
    const outcome = run("img-src 'self'");
    expect(outcome.result).toBe('csp-implemented-with-unsafe-inline');
    expect(outcome.details.join(' ')).toMatch(/Neither script-src nor default-src/);
  });

  it('only calls http: sources insecure on an https page', () => {
    expect(run("default-src 'self' http://cdn.example.com", [], false).result).toBe(
      'csp-implemented-with-no-unsafe',
    );
    expect(run("default-src 'self' http://cdn.example.com").result).toBe(
      'csp-implemented-with-insecure-scheme',
    );
  });

  it('splits comma-joined policies and reads meta policies without their header-only directives', () => {
    // two policies: the second forbids everything the first allows except 'self'
    expect(run("default-src 'self' https:, default-src 'self'").result).toBe(
      'csp-implemented-with-no-unsafe',
    );
    const meta = run([], ["default-src 'none'; frame-ancestors 'none'"]);
    expect(meta.result).toBe('csp-implemented-with-no-unsafe-default-src-none');
    expect(meta.frameAncestors).toBe('meta-only');
    expect(meta.details.join(' ')).toMatch(/ignore frame-ancestors in a <meta> policy/);
  });

  it('counts a meta policy holding only header-only directives as no policy', () => {
    expect(run([], ["frame-ancestors 'none'"]).result).toBe('csp-not-implemented');
  });
});
