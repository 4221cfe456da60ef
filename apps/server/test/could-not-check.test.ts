// One failure vocabulary for every DNS- and HTTP-backed tool (docs/architecture.md §6): with our
// DNS resolver stopped (a closed loopback port) or nothing listening at the site, the answer says
// that we could not check (503/502, a stable code, every name or URL tried) and names no address of
// ours and no fix for the user's domain; with the lab serving a bad record, the same tools answer
// 200 with the findings, their RFC section and their fix.
import { generateKeyPairSync } from 'node:crypto';
import type { ArcValidateResult, DkimVerifyMessageResult } from '@rfckit/standards';
import { startDnsServer, startWebServer, type WebServer } from '@rfckit/testlab';
import { sealMessage } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsClient } from '../src/net/dns.ts';
import { unlessResolverFailed } from '../src/tools/could-not-check.ts';
import { dkimKeyRecord, rfc8463 } from './helpers/dkim-fixtures.ts';
import { closedPort as findClosedPort, testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const WELL_KNOWN = '/.well-known/security.txt';

interface Finding {
  severity: string;
  rfc?: string;
  fix?: string;
}

/** The failing findings of a result: each with the RFC section it applies and its fix. */
function failingFindings(findings: readonly Finding[]): Finding[] {
  const failing = findings.filter((finding) => finding.severity === 'error');
  expect(failing.length).toBeGreaterThan(0);
  expect(failing.filter((finding) => finding.rfc === undefined || finding.fix === undefined)).toEqual([]);
  return failing;
}

/** Every DNS-backed operation, with a body about `domain` and what its verdict on a bad record is. */
const dnsTools = [
  {
    tool: 'SPF verify',
    path: '/v1/spf/verify',
    body: (domain: string) => ({ domain }),
    fails: (data: { status: string; diagnostics: Finding[] }) => {
      expect(data.status).toBe('permerror');
      failingFindings(data.diagnostics);
    },
  },
  {
    tool: 'SPF check',
    path: '/v1/spf/check',
    body: (domain: string) => ({ ip: '192.0.2.10', sender: `postmaster@${domain}`, helo: domain }),
    // RFC 7208 §6.1: a redirect= to a domain without a record is a permerror
    fails: (data: { result: string }) => expect(data.result).toBe('permerror'),
  },
  {
    tool: 'DMARC validate',
    path: '/v1/dmarc/validate',
    body: (domain: string) => ({ domain }),
    fails: (data: { valid: boolean; diagnostics: Finding[] }) => {
      expect(data.valid).toBe(false);
      failingFindings(data.diagnostics);
    },
  },
  {
    tool: 'DKIM DNS',
    path: '/v1/dkim/dns',
    body: (domain: string) => ({ domain, selector: 'k1' }),
    fails: (data: { valid: boolean; issues: Finding[] }) => {
      expect(data.valid).toBe(false);
      failingFindings(data.issues);
    },
  },
] as const;

interface ErrorAnswer {
  success: false;
  error: string;
  code: string;
  details?: { tried: { target: string; outcome: string }[] };
}

// a message with one ARC set sealed by lists.example.test (selector arc), and a key that is not its own
const sealKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherEd25519Key = generateKeyPairSync('ed25519');
const unsealed = [
  'From: Joe <joe@origin.test>',
  'To: list@lists.example.test',
  'Subject: could we check?',
  'Date: Mon, 23 Nov 2026 08:00:00 +0000',
  '',
  'Hello.',
  '',
].join('\r\n');
let arcSealed: string;

let closedPort: number;
let web: WebServer;

beforeAll(async () => {
  closedPort = await findClosedPort();
  const arcHeaders = await sealMessage(Buffer.from(unsealed), {
    signingDomain: 'lists.example.test',
    selector: 'arc',
    privateKey: sealKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    authResults: 'lists.example.test; spf=pass smtp.mailfrom=origin.test',
    cv: 'none',
  } as Parameters<typeof sealMessage>[1]);
  arcSealed = arcHeaders.toString() + unsealed;
  web = await startWebServer({
    sites: {
      // a file without the required Expires field (RFC 9116 §2.5.5)
      'bad.example.test': {
        routes: {
          [WELL_KNOWN]: { body: 'Contact: mailto:security@bad.example.test\n' },
          // a page without any of the security headers the Observatory grades
          '/': { headers: { 'Content-Type': 'text/html' }, body: '<!doctype html><title>Bad</title>' },
        },
      },
      // a file only at the legacy path, on whatever port the lab listens on
      '127.0.0.1': { routes: { '/security.txt': { body: 'Contact: mailto:security@example.test\n' } } },
    },
  });
});

afterAll(async () => {
  await web.close();
});

/** Asserts an answer is "we could not check": no address of ours, no fix, every target tried. */
function expectCouldNotCheck(
  response: { statusCode: number; body: string; json(): unknown },
  code: string,
  status: number,
) {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as ErrorAnswer;
  expect(answer).toMatchObject({ success: false, code });
  expect(response.body).not.toContain(`:${closedPort}`);
  expect(response.body).not.toMatch(/ECONN|EHOST|ENETUNREACH|errno/i);
  expect(response.body).not.toMatch(/"fix"|Fix:/);
  expect(answer.details?.tried.length).toBeGreaterThan(0);
  return answer;
}

describe('with our DNS resolver stopped', () => {
  const tool = toolTestApp({
    env: () => ({ DNS_SERVERS: `127.0.0.1:${closedPort}`, OUTBOUND_ALLOW: '127.0.0.0/8' }),
  });

  it.each(dnsTools)(
    '$tool says that we could not check, naming what it looked up',
    async ({ path, body }) => {
      const response = await tool.post(path, body('example.test'));
      const answer = expectCouldNotCheck(response, 'RESOLVER_UNAVAILABLE', 503);
      expect(answer.error).toMatch(
        /^Our DNS resolver did not answer, so we could not look up .*example\.test/,
      );
      expect(response.body).not.toContain('127.0.0.1');
      expect(answer.details?.tried).toContainEqual({
        target: expect.stringMatching(/example\.test$/),
        outcome: 'No answer from our DNS resolver',
      });
      // a 503 asks the client to come back: our service, not the domain, failed
      expect(response.headers['retry-after']).toBeDefined();
    },
  );

  it('DKIM selector discovery says that we could not check when no selector got an answer', async () => {
    const response = await tool.post('/v1/dkim/selectors', { domain: 'example.test' });
    const answer = expectCouldNotCheck(response, 'RESOLVER_UNAVAILABLE', 503);
    expect(response.body).not.toContain('127.0.0.1');
    expect(answer.details?.tried).toContainEqual({
      target: 'default._domainkey.example.test',
      outcome: 'No answer from our DNS resolver',
    });
  });

  it('DKIM message verify says that we could not check the signatures, not that they fail', async () => {
    const response = await tool.post('/v1/dkim/verify-message', { message: rfc8463.signed });
    const answer = expectCouldNotCheck(response, 'RESOLVER_UNAVAILABLE', 503);
    expect(response.body).not.toContain('127.0.0.1');
    expect(answer.details?.tried.map((tried) => tried.target).sort()).toEqual([
      'brisbane._domainkey.football.example.com',
      'test._domainkey.football.example.com',
    ]);
  });

  it('ARC validate says that we could not check the chain, not that it fails', async () => {
    const response = await tool.post('/v1/arc/validate', { record: arcSealed, domain: 'lists.example.test' });
    const answer = expectCouldNotCheck(response, 'RESOLVER_UNAVAILABLE', 503);
    expect(response.body).not.toContain('127.0.0.1');
    expect(answer.details?.tried).toContainEqual({
      target: 'arc._domainkey.lists.example.test',
      outcome: 'No answer from our DNS resolver',
    });
  });

  it('ARC seal of a message with a chain does not write cv=fail on keys we could not look up', async () => {
    const response = await tool.post('/v1/arc/generate', {
      message: arcSealed,
      domain: 'relay.example.test',
      selector: 'arc',
      privateKey: otherKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    const answer = expectCouldNotCheck(response, 'RESOLVER_UNAVAILABLE', 503);
    expect(response.body).not.toMatch(/127\.0\.0\.1|cv=fail/);
    expect(answer.details?.tried).toContainEqual({
      target: 'arc._domainkey.lists.example.test',
      outcome: 'No answer from our DNS resolver',
    });
  });

  it('security.txt fetch says that we could not check, listing all four places', async () => {
    const response = await tool.post('/v1/security-txt/fetch', { domain: 'example.test' });
    const answer = expectCouldNotCheck(response, 'RESOLVER_UNAVAILABLE', 503);
    expect(response.body).not.toContain('127.0.0.1');
    expect(answer.details?.tried.map((tried) => tried.target)).toEqual([
      `https://example.test${WELL_KNOWN}`,
      'https://example.test/security.txt',
      `http://example.test${WELL_KNOWN}`,
      'http://example.test/security.txt',
    ]);
  });

  it('HTTP headers analyse says that we could not check', async () => {
    const response = await tool.post('/v1/http-headers/analyze', { url: 'https://example.test/' });
    const answer = expectCouldNotCheck(response, 'RESOLVER_UNAVAILABLE', 503);
    expect(response.body).not.toContain('127.0.0.1');
    expect(answer.details?.tried).toEqual([
      { target: 'example.test', outcome: 'No answer from our DNS resolver' },
    ]);
  });
});

describe('with the lab serving bad records', () => {
  const tool = toolTestApp({
    zones: {
      ...testTld,
      'bad.example.test': { A: '127.0.0.1', TXT: 'v=spf1 redirect=missing.example.test' },
      '_dmarc.bad.example.test': { TXT: 'v=DMARC1; p=bogus' },
      'k1._domainkey.bad.example.test': { TXT: 'v=DKIM1; k=rsa; p=not*base64' },
      // the name's servers fail as every resolver sees them: a temperror the receivers get too
      'servfail.example.test': { servfail: true },
      'down.example.test': { A: '127.0.0.1' },
      // keys that are not the signers' own: the signatures fail
      'brisbane._domainkey.football.example.com': { TXT: dkimKeyRecord(otherEd25519Key.publicKey) },
      'test._domainkey.football.example.com': { servfail: true },
      'arc._domainkey.lists.example.test': { TXT: dkimKeyRecord(otherKey.publicKey) },
      'default._domainkey.bad.example.test': { TXT: 'v=DKIM1; k=rsa; p=not*base64' },
    },
    lab: () => ({
      web,
      connectTo: [
        `down.example.test:443:127.0.0.1:${closedPort}`,
        `down.example.test:80:127.0.0.1:${closedPort}`,
      ],
    }),
  });

  it.each(dnsTools)(
    '$tool says that the configuration fails, with the section and the fix',
    async ({ path, body, fails }) => {
      const data = await tool.data<never>(path, body('bad.example.test'));
      fails(data);
    },
  );

  it('DKIM selector discovery finds the bad key and says that it fails', async () => {
    const data = await tool.data<{ found: { selector: string; status: string }[] }>('/v1/dkim/selectors', {
      domain: 'bad.example.test',
    });
    expect(data.found).toContainEqual(expect.objectContaining({ selector: 'default', status: 'invalid' }));
  });

  it('DKIM message verify says that a signature fails on a wrong key, and keeps the domain’s SERVFAIL as temperror', async () => {
    const data = await tool.data<DkimVerifyMessageResult>('/v1/dkim/verify-message', {
      message: rfc8463.signed,
    });
    expect(data.summary.result).toBe('fail');
    const byKey = new Map(data.signatures.map((signature) => [signature.s, signature]));
    expect(byKey.get('brisbane')).toMatchObject({ result: 'fail', rfc: 'RFC 6376 §6.1.3' });
    // RFC 6376 §6.1.2: the name's own servers failing is the domain's TEMPFAIL, every verifier sees it
    expect(byKey.get('test')).toMatchObject({ result: 'temperror', reason: 'key lookup failed: servfail' });
  });

  it('ARC validate says that the chain fails on a wrong seal key', async () => {
    const data = await tool.data<ArcValidateResult>('/v1/arc/validate', {
      record: arcSealed,
      domain: 'lists.example.test',
    });
    expect(data.chain.result).toBe('fail');
    expect(data.sets[0]?.seal.result).toBe('fail');
  });

  it('SPF keeps a SERVFAIL from the domain’s servers as its temperror result (RFC 7208 §2.6.6)', async () => {
    const verify = await tool.data<{ status: string }>('/v1/spf/verify', { domain: 'servfail.example.test' });
    expect(verify.status).toBe('temperror');
    const check = await tool.data<{ result: string }>('/v1/spf/check', {
      ip: '192.0.2.10',
      sender: 'postmaster@servfail.example.test',
      helo: 'servfail.example.test',
    });
    expect(check.result).toBe('temperror');
  });

  it('security.txt fetch says that the file fails', async () => {
    const data = await tool.data<{ valid: boolean; diagnostics: { code: string; fix?: string }[] }>(
      '/v1/security-txt/fetch',
      { domain: 'bad.example.test' },
    );
    expect(data.valid).toBe(false);
    expect(data.diagnostics.find((finding) => finding.code === 'no_expire')?.fix).toBeDefined();
  });

  it('security.txt fetch says that we could not check a site where nothing answers, listing every place', async () => {
    const response = await tool.post('/v1/security-txt/fetch', { domain: 'down.example.test' });
    const answer = expectCouldNotCheck(response, 'CONNECT_FAILED', 502);
    expect(response.body).not.toContain('127.0.0.1');
    expect(answer.error).toBe(
      'Nothing answered on port 443 at down.example.test; Nothing answered on port 80 at down.example.test',
    );
    expect(answer.details?.tried).toEqual([
      {
        target: `https://down.example.test${WELL_KNOWN}`,
        outcome: 'Nothing answered on port 443 at down.example.test',
      },
      {
        target: 'https://down.example.test/security.txt',
        outcome: 'Not tried: Nothing answered on port 443 at down.example.test',
      },
      {
        target: `http://down.example.test${WELL_KNOWN}`,
        outcome: 'Nothing answered on port 80 at down.example.test',
      },
      {
        target: 'http://down.example.test/security.txt',
        outcome: 'Not tried: Nothing answered on port 80 at down.example.test',
      },
    ]);
  });

  it('security.txt fetch honours the port of a pasted URL, at both paths', async () => {
    const origin = `http://127.0.0.1:${web.httpPort}`;
    const data = await tool.data<{
      domain: string;
      source: { url: string } | null;
      attempts: { url: string; status: number | null }[];
    }>('/v1/security-txt/fetch', { domain: origin });
    expect(data.source?.url).toBe(`${origin}/security.txt`);
    expect(data.attempts).toMatchObject([
      { url: `${origin}${WELL_KNOWN}`, status: 404 },
      { url: `${origin}/security.txt`, status: 200 },
    ]);
  });

  it('security.txt fetch at a pasted port where nothing listens names that port', async () => {
    const response = await tool.post('/v1/security-txt/fetch', { domain: `http://127.0.0.1:${closedPort}/` });
    expect(response.statusCode, response.body).toBe(502);
    const answer = response.json() as ErrorAnswer;
    expect(answer).toMatchObject({
      code: 'CONNECT_FAILED',
      error: `Nothing answered on port ${closedPort} at 127.0.0.1`,
    });
    expect(answer.details?.tried.map((tried) => tried.target)).toEqual([
      `http://127.0.0.1:${closedPort}${WELL_KNOWN}`,
      `http://127.0.0.1:${closedPort}/security.txt`,
    ]);
  });

  it('HTTP headers analyse says that we could not check a site where nothing answers', async () => {
    const response = await tool.post('/v1/http-headers/analyze', { url: 'down.example.test' });
    const answer = expectCouldNotCheck(response, 'SITE_DOWN', 502);
    expect(response.body).not.toContain('127.0.0.1');
    expect(answer.details?.tried).toEqual([
      { target: 'https://down.example.test/', outcome: 'Nothing answered on port 443 at down.example.test' },
      { target: 'http://down.example.test/', outcome: 'Nothing answered on port 80 at down.example.test' },
    ]);
  });

  it('HTTP headers analyse says that the site’s headers fail', async () => {
    const data = await tool.data<{ issues: string[] }>('/v1/http-headers/analyze', {
      url: 'https://bad.example.test/',
    });
    expect(data.issues.length).toBeGreaterThan(0);
  });
});

describe('unlessResolverFailed', () => {
  it('says that the time of the check ran out when our lookups were cut short, not that the resolver is down', async () => {
    const dns = await startDnsServer({ zones: { 'silent.example.test': { timeout: true } } });
    try {
      const session = createDnsClient({ servers: [dns.address], timeoutMs: 1000 }).session({ budgetMs: 50 });
      const lookup = session.query('silent.example.test', 'TXT');
      await expect(unlessResolverFailed(session, lookup)).rejects.toMatchObject({
        code: 'RESOLVER_UNAVAILABLE',
        statusCode: 503,
        message:
          'Our DNS lookups ran out of the time one check may take, so we could not look up silent.example.test',
        tried: [{ target: 'silent.example.test', outcome: 'Not answered within the time of this check' }],
      });
    } finally {
      await dns.close();
    }
  });

  it('passes a result through when every lookup got an answer, SERVFAIL included', async () => {
    const dns = await startDnsServer({ zones: { 'broken.example.test': { servfail: true } } });
    try {
      const session = createDnsClient({ servers: [dns.address], attempts: 1 }).session();
      const result = await unlessResolverFailed(session, session.query('broken.example.test', 'TXT'));
      expect(result).toMatchObject({
        status: 'servfail',
        message: 'the DNS servers answered SERVFAIL (server failure)',
      });
    } finally {
      await dns.close();
    }
  });
});
