// The MTA-STS live check against the lab: policy hosts on the lab web server (good, redirecting,
// text/html, oversized, wrong-name certificate), STARTTLS SMTP servers with lab certificates for
// the MX hosts, and the lab DNS. The expected verdicts are RFC 8461's, written out here.
import type { MtaStsCheckResultData } from '@rfckit/standards';
import {
  mtaStsLabDomains as domains,
  mtaStsLabZones,
  startMtaStsLab,
  startWebServer,
  type MtaStsLab,
  type WebServer,
} from '@rfckit/testlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTld } from './helpers/lab-fixtures.ts';
import { toolTestApp } from './helpers/tool-test-app.ts';

const CHECK = '/v1/mta-sts/check';
// several handshakes in parallel on a busy machine
const SLOW = 30_000;

let web: WebServer;
let lab: MtaStsLab;

beforeAll(async () => {
  web = await startWebServer({ sites: {} });
  lab = await startMtaStsLab({ web });
});
afterAll(async () => {
  await lab?.close();
  await web?.close();
});

const tool = toolTestApp({
  zones: { ...testTld, ...mtaStsLabZones(), 'intranet.mtasts.example.test': { A: '10.1.2.3' } },
  lab: () => ({ web, connectTo: lab.connectTo }),
});

const check = (domain: string) => tool.data<MtaStsCheckResultData>(CHECK, { domain });
const codes = (diagnostics: readonly { code: string }[]) => diagnostics.map((diagnostic) => diagnostic.code);

describe('POST /v1/mta-sts/check', () => {
  it(
    'enforce mode with a wrong-name certificate on mx2: mail to mx2 would fail',
    async () => {
      const result = await check(domains.enforce);
      const mx2 = `mx2.${domains.enforce}`;
      expect(result.verdict).toBe('fail');
      expect(result.summary).toContain(`mail to ${mx2} would fail`);
      expect(result.failingHosts).toEqual([mx2]);
      expect(result.record).toMatchObject({ found: true, id: '20261125T000000' });
      expect(result.policy).toMatchObject({
        fetched: true,
        status: 200,
        mode: 'enforce',
        maxAge: 604800,
        mx: [1, 2, 3].map((index) => `mx${index}.${domains.enforce}`),
      });
      expect(result.mx.hosts.map((host) => [host.host, host.preference, host.wouldFail])).toEqual([
        [`mx1.${domains.enforce}`, 10, false],
        [mx2, 20, true],
        [`mx3.${domains.enforce}`, 30, false],
      ]);
      const failing = result.mx.hosts[1]!;
      expect(failing).toMatchObject({
        matchedPattern: mx2,
        starttls: true,
        trusted: true,
        nameMatches: false,
      });
      const nameProblem = failing.diagnostics.find((diagnostic) => diagnostic.code === 'MTASTS_MX_CERT_NAME');
      expect(nameProblem).toMatchObject({ severity: 'error', rfc: expect.stringContaining('RFC 8461 §4.2') });
      expect(nameProblem?.fix).toContain(mx2);
      for (const host of [result.mx.hosts[0]!, result.mx.hosts[2]!])
        expect(host).toMatchObject({
          starttls: true,
          trusted: true,
          nameMatches: true,
          expired: false,
          diagnostics: [],
        });
    },
    SLOW,
  );

  it(
    'enforce mode: an expired certificate, no STARTTLS and an untrusted CA each make mail fail (RFC 8461 §4.2)',
    async () => {
      const result = await check(domains.broken);
      const [expired, plain, untrusted] = [1, 2, 3].map((index) => `mx${index}.${domains.broken}`);
      expect(result.verdict).toBe('fail');
      expect(result.failingHosts).toEqual([expired, plain, untrusted]);
      const byHost = Object.fromEntries(result.mx.hosts.map((host) => [host.host, host]));
      expect(byHost[expired!]).toMatchObject({
        starttls: true,
        trusted: true,
        nameMatches: true,
        expired: true,
      });
      expect(codes(byHost[expired!]!.diagnostics)).toEqual(['MTASTS_MX_CERT_EXPIRED']);
      expect(byHost[plain!]).toMatchObject({ starttls: false, tlsVersion: null, trusted: null });
      expect(codes(byHost[plain!]!.diagnostics)).toEqual(['MTASTS_MX_NO_STARTTLS']);
      expect(byHost[untrusted!]).toMatchObject({ starttls: true, trusted: false, nameMatches: true });
      expect(codes(byHost[untrusted!]!.diagnostics)).toEqual(['MTASTS_MX_CERT_UNTRUSTED']);
    },
    SLOW,
  );

  it(
    'enforce mode: a host greeting 554 and a host that never greets are said to be so, not "no STARTTLS", and mail to them fails',
    async () => {
      const result = await check(domains.refusing);
      const [rejecting, silent] = [1, 2].map((index) => `mx${index}.${domains.refusing}`);
      expect(result.verdict).toBe('fail');
      expect(result.failingHosts).toEqual([rejecting, silent]);
      for (const host of result.mx.hosts) {
        expect(host).toMatchObject({ starttls: null, tlsVersion: null, trusted: null, wouldFail: true });
        expect(host.diagnostics).toEqual([
          expect.objectContaining({
            code: 'MTASTS_MX_UNREACHABLE',
            severity: 'error',
            rfc: 'RFC 5321 §3.1, §4.5.3.2.1',
          }),
        ]);
      }
      const [first, second] = result.mx.hosts.map((host) => host.diagnostics[0]?.message);
      expect(first).toContain(
        `${rejecting} greeted with 554 ("554 5.7.1 ${rejecting} No SMTP service here")`,
      );
      expect(second).toContain(`${silent} accepted the connection but no banner within 20 s`);
      for (const message of [first, second]) {
        expect(message).not.toContain('STARTTLS;');
        expect(message).toContain('Mail to');
      }
    },
    2 * SLOW,
  );

  it(
    'no MTA-STS: a host that never greets gets a warning that says so, and nothing would fail',
    async () => {
      const result = await check(domains.silent);
      expect(result.verdict).toBe('none');
      expect(result.failingHosts).toEqual([]);
      const [host] = result.mx.hosts;
      expect(host).toMatchObject({ starttls: null, wouldFail: false });
      expect(host?.diagnostics).toEqual([
        expect.objectContaining({
          code: 'MTASTS_MX_UNREACHABLE',
          severity: 'warning',
          message: expect.stringContaining('no banner within 20 s'),
        }),
      ]);
    },
    2 * SLOW,
  );

  it.each([
    [domains.redirect, 'MTASTS_FETCH_REDIRECT', 301],
    [domains.oversized, 'MTASTS_FETCH_TOO_LARGE', 200],
    [domains.badCertificate, 'MTASTS_FETCH_CERT_NAME', 200],
    // senders SHOULD check the media type, and those that do discard a text/html policy
    [domains.html, 'MTASTS_FETCH_CONTENT_TYPE', 200],
  ])(
    '%s: the policy is refused (%s) with RFC 8461 §3.3, and no MX host fails for it',
    async (domain, code, status) => {
      const result = await check(domain);
      expect(result.verdict).toBe('fail');
      expect(result.policy).toMatchObject({ fetched: false, raw: null, mode: null, status });
      expect(result.policy.diagnostics).toEqual([
        expect.objectContaining({ code, severity: 'error', rfc: 'RFC 8461 §3.3', fix: expect.any(String) }),
        expect.objectContaining({ code: 'MTASTS_FETCH_NO_POLICY', severity: 'info' }),
      ]);
      expect(result.failingHosts).toEqual([]);
    },
    SLOW,
  );

  it(
    'testing mode: an MX host outside the policy is a warning, mail is still delivered',
    async () => {
      const result = await check(domains.testing);
      expect(result.verdict).toBe('warn');
      expect(result.policy.mode).toBe('testing');
      expect(result.failingHosts).toEqual([]);
      const [mx1, mx2] = result.mx.hosts;
      expect(mx1).toMatchObject({
        matchedPattern: `mx1.${domains.testing}`,
        wouldFail: false,
        diagnostics: [],
      });
      expect(mx2).toMatchObject({ matchedPattern: null, wouldFail: false, starttls: true });
      expect(mx2?.diagnostics).toEqual([
        expect.objectContaining({ code: 'MTASTS_MX_NOT_IN_POLICY', severity: 'warning' }),
      ]);
    },
    SLOW,
  );

  it(
    'no _mta-sts record: verdict none, no policy fetched',
    async () => {
      const result = await check(domains.none);
      expect(result.verdict).toBe('none');
      expect(result.record).toMatchObject({ found: false, raw: null, id: null });
      expect(result.policy).toMatchObject({ fetched: false, status: null });
      expect(web.requests.some((request) => request.host === `mta-sts.${domains.none}`)).toBe(false);
    },
    SLOW,
  );

  it('null MX: no host is contacted and the policy is said to protect nothing', async () => {
    const result = await check(domains.nullMx);
    expect(result.mx).toEqual({ nullMx: true, dnsError: null, hosts: [] });
    expect(result.verdict).toBe('warn');
    expect(codes(result.diagnostics)).toEqual(['MTASTS_NULL_MX']);
  });

  it(
    'an MX host that is a CNAME: warned (RFC 5321 §5.1), matched and checked by the MX name',
    async () => {
      const result = await check(domains.cnameMx);
      const [host] = result.mx.hosts;
      expect(host).toMatchObject({
        host: `mail.${domains.cnameMx}`,
        cnameTarget: `relay.${domains.cnameMx}`,
        matchedPattern: `*.${domains.cnameMx}`,
        nameMatches: true,
        wouldFail: false,
      });
      expect(host?.diagnostics).toEqual([
        expect.objectContaining({ code: 'MTASTS_MX_IS_CNAME', rfc: 'RFC 5321 §5.1, RFC 2181 §10.3' }),
      ]);
      expect(result.verdict).toBe('warn');
    },
    SLOW,
  );

  it(
    'our resolver gets no answer for the MX hosts: we could not check (503), not a verdict',
    async () => {
      const response = await tool.post(CHECK, { domain: domains.dnsTimeout });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ success: false, code: 'RESOLVER_UNAVAILABLE' });
    },
    SLOW,
  );

  it('the DNS servers answer the MX query with SERVFAIL: a fail, no MX host checked', async () => {
    // the timeout domain's policy is served; its MX query now fails at its servers instead
    const zone = mtaStsLabZones()[domains.dnsTimeout];
    tool.dns.update(domains.dnsTimeout, { ...zone, timeout: false, servfail: ['MX'] });
    const result = await check(domains.dnsTimeout).finally(() => tool.dns.update(domains.dnsTimeout, zone));
    expect(result.verdict).toBe('fail');
    expect(result.mx.hosts).toEqual([]);
    expect(result.summary).toContain('cannot be looked up');
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'MTASTS_MX_DNS_ERROR', severity: 'error' }),
    );
  });

  it('the DNS servers of the record fail (SERVFAIL): a fail that says senders cannot discover the policy', async () => {
    tool.dns.update('_mta-sts.servfail.mtasts.example.test', { servfail: true });
    const result = await check('servfail.mtasts.example.test');
    expect(result.verdict).toBe('fail');
    expect(result.summary).toContain('cannot be read');
    expect(codes(result.record.diagnostics)).toEqual(['MTASTS_RECORD_DNS_ERROR']);
  });

  it(
    'our resolver never answers for the record: we could not check (503), not a verdict on the domain',
    async () => {
      tool.dns.update('_mta-sts.silent.mtasts.example.test', { timeout: true });
      const response = await tool.post(CHECK, { domain: 'silent.mtasts.example.test' });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ success: false, code: 'RESOLVER_UNAVAILABLE' });
    },
    SLOW,
  );

  it('a policy host at a private address is refused as the target (422)', async () => {
    tool.dns.update('_mta-sts.intranet.mtasts.example.test', { TXT: 'v=STSv1; id=1;' });
    tool.dns.update('mta-sts.intranet.mtasts.example.test', { A: '10.1.2.3' });
    const response = await tool.post(CHECK, { domain: 'intranet.mtasts.example.test' });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ success: false, code: 'OUTBOUND_BLOCKED' });
  });

  it.each([{}, { domain: '' }, { domain: 'not a domain' }, { domain: 'example.com', extra: 1 }])(
    'bad input %j is a 400',
    async (body) => {
      const response = await tool.post(CHECK, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ success: false });
    },
  );
});
