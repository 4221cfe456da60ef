// The SMTP session inspector's routes against the lab: MX lookups (implicit, null, CNAME), the
// recorded session of lab SMTP servers as JSON and as Server-Sent Events, and every fault the
// issue names answered with a clear result, never a 5xx or a hung request.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestCa,
  type LabTlsServer,
  type SmtpLabVariant,
  startPlainServer,
  startSmtpServer,
} from '@rfckit/testlab';
import type { SmtpInspectResult, SmtpMxResult } from '@rfckit/standards';
import { toolTestApp } from './helpers/tool-test-app.ts';

const ZONE = 'mail-good.example.test';
const hostOf = (label: string) => `${label}.${ZONE}`;

const variants: Record<string, SmtpLabVariant> = {
  mx1: 'starttls',
  greylist: 'greylist',
  silent: 'no-banner',
  drop: 'starttls-drop',
  refuse: 'starttls-454',
};

let dir: string;
let caFile: string;
const servers: LabTlsServer[] = [];
const connectTo: string[] = [];

beforeAll(async () => {
  const ca = await createTestCa();
  dir = mkdtempSync(path.join(tmpdir(), 'rfckit-smtp-inspector-'));
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  const certificate = await ca.issue({
    names: [...Object.keys(variants), 'submit'].map(hostOf),
  });
  for (const [label, variant] of Object.entries(variants)) {
    const server = await startSmtpServer({ variant, certificate, name: hostOf(label) });
    servers.push(server);
    connectTo.push(`${hostOf(label)}:25:127.0.0.1:${server.port}`);
  }
  // a plain-text SMTP server where port 465 expects TLS from the first byte
  const mx1 = servers[0];
  if (mx1 !== undefined) connectTo.push(`${hostOf('mx1')}:465:127.0.0.1:${mx1.port}`);
  const implicit = await startSmtpServer({ variant: 'implicit-tls', certificate, name: hostOf('submit') });
  const ssh = await startPlainServer('ssh');
  const closed = await startPlainServer('silent');
  await closed.close();
  servers.push(implicit, ssh);
  connectTo.push(
    `${hostOf('submit')}:465:127.0.0.1:${implicit.port}`,
    `${hostOf('ssh')}:25:127.0.0.1:${ssh.port}`,
    `${hostOf('closed')}:25:127.0.0.1:${closed.port}`,
  );
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

const tool = toolTestApp({
  zones: {
    [ZONE]: {
      MX: [
        { preference: 20, exchange: hostOf('greylist') },
        { preference: 10, exchange: hostOf('mx1') },
      ],
    },
    [hostOf('mx1')]: { A: '192.0.2.10', AAAA: '2001:db8::10' },
    [hostOf('greylist')]: { A: '192.0.2.11' },
    'alias.example.test': { MX: { preference: 10, exchange: 'mail.alias.example.test' } },
    'mail.alias.example.test': { CNAME: hostOf('mx1') },
    'nullmx.example.test': { MX: { preference: 0, exchange: '.' } },
    'implicit.example.test': { A: '192.0.2.20' },
  },
  lab: () => ({ connectTo }),
  env: () => ({ OUTBOUND_CA_FILE: caFile }),
});

const inspect = (body: Record<string, unknown>) =>
  tool.data<SmtpInspectResult>('/v1/smtp-session-inspector/inspect', body);
/** The steps of a whole STARTTLS session, in order. */
const STARTTLS_SESSION = ['connect', 'banner', 'ehlo', 'starttls', 'tls', 'ehlo-tls', 'quit'];

const codes = (result: { deviations: { code: string }[] }) => result.deviations.map((d) => d.code);

describe('POST /v1/smtp-session-inspector/mx', () => {
  it('lists the MX hosts by preference with their addresses', async () => {
    const result = await tool.data<SmtpMxResult>('/v1/smtp-session-inspector/mx', { domain: ZONE });
    expect(result.hosts.map((host) => [host.preference, host.host, host.addresses])).toEqual([
      [10, hostOf('mx1'), ['192.0.2.10', '2001:db8::10']],
      [20, hostOf('greylist'), ['192.0.2.11']],
    ]);
    expect(result.diagnostics).toEqual([]);
  });

  it('warns of an MX host that is a CNAME (RFC 2181 §10.3)', async () => {
    const result = await tool.data<SmtpMxResult>('/v1/smtp-session-inspector/mx', {
      domain: 'alias.example.test',
    });
    expect(result.hosts[0]).toMatchObject({ host: 'mail.alias.example.test', cnameTarget: hostOf('mx1') });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'SMTP_MX_IS_CNAME',
        severity: 'warning',
        rfc: 'RFC 2181 §10.3, RFC 5321 §5.1',
      }),
    ]);
  });

  it('says a null MX domain accepts no mail (RFC 7505)', async () => {
    const result = await tool.data<SmtpMxResult>('/v1/smtp-session-inspector/mx', {
      domain: 'nullmx.example.test',
    });
    expect(result).toMatchObject({ nullMx: true, hosts: [] });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['SMTP_NULL_MX']);
  });

  it('falls back to the implicit MX (RFC 5321 §5.1)', async () => {
    const result = await tool.data<SmtpMxResult>('/v1/smtp-session-inspector/mx', {
      domain: 'implicit.example.test',
    });
    expect(result.hosts).toEqual([
      expect.objectContaining({ host: 'implicit.example.test', implicit: true }),
    ]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['SMTP_IMPLICIT_MX']);
  });

  it('answers a domain that does not exist with a DNS error, not a failure of ours', async () => {
    const result = await tool.data<SmtpMxResult>('/v1/smtp-session-inspector/mx', {
      domain: 'nowhere.example.test',
    });
    expect(result.dnsError).toBe('nowhere.example.test does not exist (NXDOMAIN)');
    expect(result.diagnostics.map((d) => d.code)).toEqual(['SMTP_MX_LOOKUP_FAILED']);
  });
});

describe('POST /v1/smtp-session-inspector/inspect', () => {
  it('records the session with a good server: STARTTLS, TLS 1.3, a trusted certificate', async () => {
    const result = await inspect({ host: hostOf('mx1'), port: 25, domain: ZONE });
    expect(result.steps.map((step) => step.kind)).toEqual(STARTTLS_SESSION);
    expect(result).toMatchObject({ completed: true, domain: ZONE, starttlsAdvertised: true });
    expect(result.limits).toEqual({
      connectMs: 10_000,
      bannerMs: 30_000,
      replyMs: 30_000,
      handshakeMs: 15_000,
      sessionMs: 90_000,
    });
    expect(result.tls).toMatchObject({
      version: 'TLSv1.3',
      trusted: true,
      nameMatches: true,
      expired: false,
    });
    // AUTH and REQUIRETLS offered only over TLS: expected, so information only
    expect(result.deviations).toEqual([
      expect.objectContaining({ code: 'SMTP_EXTENSIONS_GAINED', severity: 'info' }),
    ]);
  });

  it('streams each step as a progress event, then the result', async () => {
    const response = await tool.inject({
      method: 'POST',
      url: '/v1/smtp-session-inspector/inspect',
      headers: { ...tool.signedIn, 'content-type': 'application/json', accept: 'text/event-stream' },
      payload: JSON.stringify({ host: hostOf('mx1'), port: 25 }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = response.body
      .split('\n\n')
      .filter(Boolean)
      .map((block) => ({
        name: /^event: (.*)$/m.exec(block)?.[1] ?? '',
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>,
      }));
    expect(events.map((event) => event.name)).toEqual([...Array(7).fill('progress'), 'result']);
    expect(events.slice(0, -1).map((event) => event.data.kind)).toEqual(STARTTLS_SESSION);
    expect(events.at(-1)?.data).toMatchObject({ success: true, data: { completed: true } });
  });

  it('speaks implicit TLS on port 465 (RFC 8314)', async () => {
    const result = await inspect({ host: hostOf('submit'), port: 465 });
    expect(result.mode).toBe('implicit');
    expect(result.steps.map((step) => step.kind)).toEqual(['connect', 'tls', 'banner', 'ehlo', 'quit']);
    expect(result.deviations).toEqual([]);
  });

  it('flags a greylisting-style 421 banner', async () => {
    const result = await inspect({ host: hostOf('greylist'), port: 25 });
    expect(codes(result)).toEqual(['SMTP_BANNER_TEMPORARY']);
    expect(result.steps[1]?.code).toBe(421);
  });

  it('flags STARTTLS answered 454 (RFC 3207 §4)', async () => {
    const result = await inspect({ host: hostOf('refuse'), port: 25 });
    expect(codes(result)).toEqual(['SMTP_STARTTLS_FAILED']);
  });

  it('says the server dropped the connection after STARTTLS', async () => {
    const result = await inspect({ host: hostOf('drop'), port: 25 });
    expect(codes(result)).toEqual(['SMTP_TLS_FAILED']);
    expect(result.steps.at(-1)?.error).toBe('the server closed the connection after STARTTLS');
    expect(result.deviations[0]?.message).toBe(
      `The TLS handshake with ${hostOf('drop')} port 25 failed: the server closed the connection after STARTTLS.`,
    );
    expect(result.completed).toBe(false);
  });

  it('says a plain-text server on port 465 answered in plain text, not TLS (RFC 8314 §3)', async () => {
    const result = await inspect({ host: hostOf('mx1'), port: 465 });
    expect(result.mode).toBe('implicit');
    expect(codes(result)).toEqual(['SMTP_TLS_FAILED']);
    const error = `the server answered in plain text ("220 ${hostOf('mx1')} ESMTP"), not TLS: port 465 expects TLS from the first byte (RFC 8314 §3)`;
    expect(result.steps.at(-1)?.error?.startsWith(error.slice(0, 60))).toBe(true);
    expect(result.deviations[0]?.message).toMatch(
      /^The TLS handshake with \S+ port 465 failed: the server answered in plain text \("220 /,
    );
    expect(result.deviations[0]?.message).not.toMatch(/failed:.*failed:/);
    expect(result.deviations[0]?.fix).toContain('STARTTLS on port 587');
  });

  it('says a service that is not SMTP is not SMTP', async () => {
    const result = await inspect({ host: hostOf('ssh'), port: 25 });
    expect(codes(result)).toEqual(['SMTP_NOT_SMTP']);
  });

  it('answers a closed port with a failed connect step', async () => {
    const result = await inspect({ host: hostOf('closed'), port: 25 });
    expect(result.steps.map((step) => step.kind)).toEqual(['connect']);
    expect(codes(result)).toEqual(['SMTP_CONNECT_FAILED']);
  });

  it('names the banner time limit for a host that never greets', { timeout: 60_000 }, async () => {
    const result = await inspect({ host: hostOf('silent'), port: 25 });
    expect(result.steps[1]).toMatchObject({ kind: 'banner', ok: false, error: 'no banner within 30 s' });
    expect(codes(result)).toEqual(['SMTP_NO_BANNER']);
  });

  it('refuses a private address with 422', async () => {
    const response = await tool.post('/v1/smtp-session-inspector/inspect', { host: '10.0.0.25', port: 25 });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ success: false, code: 'OUTBOUND_BLOCKED' });
  });

  it.each([
    [{ host: hostOf('mx1'), port: 26 }, 'Port must be 25, 587 or 465'],
    [{ host: '', port: 25 }, 'Hostname is required'],
    [{ host: 'mx1 example', port: 25 }, undefined],
    [{ host: hostOf('mx1'), port: 25, mailFrom: 'a@b.test' }, undefined],
    [{ host: hostOf('mx1'), port: '25' }, 'Port must be 25, 587 or 465'],
  ])('answers bad input %j with 400', async (body, message) => {
    const response = await tool.post('/v1/smtp-session-inspector/inspect', body);
    expect(response.statusCode).toBe(400);
    if (message !== undefined) expect(JSON.stringify(response.json())).toContain(message);
  });

  it('answers a bad domain for the MX lookup with 400', async () => {
    const response = await tool.post('/v1/smtp-session-inspector/mx', { domain: 'user@example.com' });
    expect(response.statusCode).toBe(400);
  });
});
