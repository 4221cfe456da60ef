// SMTP sessions through the guarded probe layer against the lab's SMTP servers: the transcript
// step by step, the TLS details, and each fault as a step with plain words and a named limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type IssuedCertificate,
  type SmtpServerOptions,
  startPlainServer,
  startSmtpServer,
} from '@rfckit/testlab';
import { runSmtpSession, type SmtpSessionOptions } from '../src/mail-transport/smtp-session.ts';
import { NetError } from '../src/net/errors.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';

let lab: TlsLab;
let good: IssuedCertificate;

beforeAll(async () => {
  lab = await createTlsLab();
  good = await lab.issue();
});

afterAll(async () => {
  await lab.close();
});

async function session(
  server: Omit<SmtpServerOptions, 'certificate'> & { certificate?: IssuedCertificate },
  options: Partial<SmtpSessionOptions> = {},
) {
  const running = await lab.started(startSmtpServer({ certificate: good, ...server }));
  const result = await runSmtpSession(lab.session(running.port), {
    host: LAB_TLS_HOST,
    port: 25,
    clientName: 'rfckit.example',
    signal: AbortSignal.timeout(20_000),
    ...options,
  });
  return { result, commands: running.commands };
}

const kinds = (steps: { kind: string }[]) => steps.map((step) => step.kind);

describe('runSmtpSession', () => {
  it('records a STARTTLS session from banner to QUIT, and never sends MAIL FROM or DATA', async () => {
    const seen: string[] = [];
    const { result, commands } = await session(
      { variant: 'starttls' },
      { onStep: (step) => seen.push(step.kind) },
    );
    expect(kinds(result.steps)).toEqual(['connect', 'banner', 'ehlo', 'starttls', 'tls', 'ehlo-tls', 'quit']);
    expect(seen).toEqual(kinds(result.steps));
    expect(result.steps.every((step) => step.ok && step.error === null)).toBe(true);
    expect(result).toMatchObject({ host: LAB_TLS_HOST, port: 25, address: '127.0.0.1', mode: 'starttls' });
    expect(result.completed).toBe(true);
    expect(result.steps[1]).toMatchObject({ sent: null, code: 220 });
    expect(result.steps[2]).toMatchObject({ sent: 'EHLO rfckit.example', code: 250 });
    expect(result.steps[3]).toMatchObject({ sent: 'STARTTLS', code: 220 });
    expect(result.steps[6]).toMatchObject({ sent: 'QUIT', code: 221 });
    expect(result.starttlsAdvertised).toBe(true);
    expect(result.extensions).toEqual(
      expect.arrayContaining(['PIPELINING', '8BITMIME', 'SMTPUTF8', 'STARTTLS', 'SIZE 10240000']),
    );
    expect(result.extensions).not.toContain('REQUIRETLS');
    expect(result.extensionsAfterTls).toEqual(expect.arrayContaining(['REQUIRETLS', 'AUTH PLAIN LOGIN']));
    expect(result.extensionsAfterTls).not.toContain('STARTTLS');
    expect(result.tls).toMatchObject({
      version: 'TLSv1.3',
      servername: LAB_TLS_HOST,
      trusted: true,
      trustError: null,
      nameMatches: true,
      expired: false,
    });
    expect(result.tls?.chain[0]?.dnsNames).toEqual([LAB_TLS_HOST]);
    for (let i = 1; i < result.steps.length; i++)
      expect(result.steps[i]!.startedMs).toBeGreaterThanOrEqual(result.steps[i - 1]!.startedMs);
    expect(commands.map((line) => line.split(' ')[0])).toEqual(['EHLO', 'STARTTLS']);
  });

  it('reports expired and wrong-name certificates without failing the session', async () => {
    const expired = await lab.issue({ notAfter: new Date(Date.now() - 86_400_000) });
    const wrongName = await lab.issue({ names: ['other.example.test'] });
    const a = await session({ variant: 'starttls', certificate: expired });
    expect(a.result.completed).toBe(true);
    expect(a.result.tls).toMatchObject({ trusted: true, expired: true, nameMatches: true });
    const b = await session({ variant: 'starttls', certificate: wrongName });
    expect(b.result.tls).toMatchObject({ trusted: true, expired: false, nameMatches: false });
    const selfSigned = await lab.issue({ selfSigned: true });
    const c = await session({ variant: 'starttls', certificate: selfSigned });
    expect(c.result.tls?.trusted).toBe(false);
    expect(c.result.tls?.trustError).toBe('the certificate is self-signed');
  });

  it('stops before TLS when STARTTLS is not offered', async () => {
    const { result } = await session({ variant: 'no-starttls' });
    expect(kinds(result.steps)).toEqual(['connect', 'banner', 'ehlo', 'quit']);
    expect(result).toMatchObject({
      starttlsAdvertised: false,
      tls: null,
      completed: true,
      extensionsAfterTls: null,
    });
  });

  it('speaks TLS from the first byte on port 465 (RFC 8314 §3)', async () => {
    const running = await lab.started(startSmtpServer({ variant: 'implicit-tls', certificate: good }));
    const result = await runSmtpSession(lab.session(running.port), {
      host: LAB_TLS_HOST,
      port: 465,
      clientName: 'rfckit.example',
      signal: AbortSignal.timeout(20_000),
    });
    expect(result.mode).toBe('implicit');
    expect(kinds(result.steps)).toEqual(['connect', 'tls', 'banner', 'ehlo', 'quit']);
    expect(result.completed).toBe(true);
    expect(result.tls?.trusted).toBe(true);
    expect(result.extensions).toContain('AUTH PLAIN LOGIN');
  });

  it('records STARTTLS answered 454 and still says QUIT', async () => {
    const { result } = await session({ variant: 'starttls-454' });
    expect(kinds(result.steps)).toEqual(['connect', 'banner', 'ehlo', 'starttls', 'quit']);
    expect(result.steps[3]).toMatchObject({
      code: 454,
      ok: false,
      error: 'the reply to STARTTLS was 454, not 220',
    });
    expect(result).toMatchObject({ tls: null, completed: false });
  });

  it('says the connection closed after STARTTLS when the server drops it', async () => {
    const { result } = await session({ variant: 'starttls-drop' });
    expect(kinds(result.steps)).toEqual(['connect', 'banner', 'ehlo', 'starttls', 'tls']);
    expect(result.steps[4]?.ok).toBe(false);
    expect(result.steps[4]?.error).toBe('the server closed the connection after STARTTLS');
    expect(result.completed).toBe(false);
  });

  it('names the banner time limit when the server never greets', async () => {
    const { result } = await session({ variant: 'no-banner' }, { timeouts: { bannerMs: 300 } });
    expect(kinds(result.steps)).toEqual(['connect', 'banner']);
    expect(result.steps[1]).toMatchObject({
      ok: false,
      code: null,
      reply: [],
      error: 'no banner within 300 ms',
    });
  });

  it('times a slow banner', async () => {
    const { result } = await session({ variant: 'starttls', bannerDelayMs: 400 });
    expect(result.completed).toBe(true);
    expect(result.steps[1]?.durationMs).toBeGreaterThanOrEqual(350);
  });

  it.each([
    ['greylist', 421],
    ['reject-554', 554],
  ] as const)('records a %s banner and says QUIT', async (variant, code) => {
    const { result } = await session({ variant });
    expect(kinds(result.steps)).toEqual(['connect', 'banner', 'quit']);
    expect(result.steps[1]).toMatchObject({ code, ok: false, error: `the banner was ${code}, not 220` });
    expect(result.steps[2]).toMatchObject({ code: 221, ok: true });
  });

  it('records EHLO refused without trying HELO', async () => {
    const { result, commands } = await session({ variant: 'ehlo-rejected' });
    expect(kinds(result.steps)).toEqual(['connect', 'banner', 'ehlo', 'quit']);
    expect(result.steps[2]).toMatchObject({ code: 502, ok: false });
    expect(commands).not.toContain('HELO rfckit.example');
  });

  it('reads the extensions again after STARTTLS (RFC 3207 §4.2)', async () => {
    const { result } = await session({ variant: 'extensions-change' });
    expect(result.extensions).toEqual(['PIPELINING', 'SIZE 10240000', '8BITMIME', 'STARTTLS']);
    expect(result.extensionsAfterTls).toEqual(['PIPELINING', 'AUTH PLAIN LOGIN', 'STARTTLS']);
  });

  it('says a service that is not SMTP is not SMTP', async () => {
    const ssh = await lab.started(startPlainServer('ssh'));
    const result = await runSmtpSession(lab.session(ssh.port), {
      host: LAB_TLS_HOST,
      port: 25,
      clientName: 'rfckit.example',
      signal: AbortSignal.timeout(10_000),
    });
    expect(result.steps[1]).toMatchObject({
      kind: 'banner',
      ok: false,
      error: 'not an SMTP reply: the server greeted with "SSH-2.0-OpenSSH_9.6 lab"',
    });
  });

  it('records a closed port as a failed connect step', async () => {
    const closed = await startSmtpServer({ variant: 'no-banner' });
    await closed.close();
    const result = await runSmtpSession(lab.session(closed.port), {
      host: LAB_TLS_HOST,
      port: 25,
      clientName: 'rfckit.example',
      signal: AbortSignal.timeout(10_000),
    });
    expect(kinds(result.steps)).toEqual(['connect']);
    expect(result.steps[0]?.ok).toBe(false);
    expect(result.steps[0]?.error).toMatch(/refused|closed|port 25/i);
  });

  it('throws the guard refusal for a private address instead of connecting', async () => {
    const running = await lab.started(startSmtpServer({ variant: 'starttls', certificate: good }));
    const refused = runSmtpSession(lab.session(running.port, { allowLoopback: false }), {
      host: LAB_TLS_HOST,
      port: 25,
      clientName: 'rfckit.example',
      signal: AbortSignal.timeout(10_000),
    });
    await expect(refused).rejects.toBeInstanceOf(NetError);
    await expect(refused).rejects.toMatchObject({ code: 'OUTBOUND_BLOCKED' });
    expect(running.commands).toEqual([]);
  });
});
