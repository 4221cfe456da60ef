// The session inspector's transcript against swaks' (Debian `swaks`, an independent SMTP client
// on OpenSSL) for the same lab servers, step by step: banner, EHLO answer, STARTTLS reply, the
// TLS version and suite, and the EHLO answer after TLS.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProgram, type IssuedCertificate, type SmtpLabVariant, startSmtpServer } from '@rfckit/testlab';
import { runSmtpSession, type SmtpSessionResult } from '../src/mail-transport/smtp-session.ts';
import { LAB_TLS_HOST, type TlsLab, createTlsLab } from './helpers/tls-lab.ts';

const run = promisify(execFile);
const swaksInstalled = hasProgram('swaks');
// CI installs swaks (.ci/run): there a missing one is a broken setup, not a reason to skip
if (!swaksInstalled && process.env.CI === 'true')
  throw new Error('CI is set but swaks is not on PATH: apt-get install swaks (.ci/run does)');

const CLIENT_NAME = 'rfckit.example';

interface SwaksTranscript {
  /** Server reply lines before TLS (`<-`, `<**` for a reply swaks did not expect). */
  plain: string[][];
  /** Server reply lines over TLS (`<~`, `<~*`). */
  secured: string[][];
  /** Commands sent in the clear (` ->`) and over TLS (` ~>`). */
  sent: string[];
  /** `TLSv1.3:TLS_AES_256_GCM_SHA384:256` from `=== TLS started with cipher …`. */
  tls: { version: string; cipher: string } | null;
}

/** Reads swaks' transcript: each reply is the run of server lines between two client lines. */
function parseSwaks(output: string): SwaksTranscript {
  const transcript: SwaksTranscript = { plain: [], secured: [], sent: [], tls: null };
  let current: string[] | null = null;
  for (const line of output.split('\n')) {
    const server = /^<(-|\*\*|~|~\*) {1,2}(.*)$/.exec(line);
    if (server) {
      const secured = server[1]!.startsWith('~');
      if (current === null) {
        current = [];
        (secured ? transcript.secured : transcript.plain).push(current);
      }
      current.push(server[2]!);
      continue;
    }
    current = null;
    const client = /^ (?:->|~>|\*\*>) (.*)$/.exec(line);
    if (client) transcript.sent.push(client[1]!);
    const tls = /^=== TLS started with cipher ([^:]+):([^:]+):/.exec(line);
    if (tls) transcript.tls = { version: tls[1]!, cipher: tls[2]! };
  }
  return transcript;
}

async function swaks(
  port: number,
  quitAfter: 'STARTTLS' | 'HELO',
  tlsOptional = false,
): Promise<SwaksTranscript> {
  const args = [
    '--server',
    '127.0.0.1',
    '--port',
    String(port),
    '--ehlo',
    CLIENT_NAME,
    '--quit-after',
    quitAfter,
  ];
  args.push(tlsOptional ? '--tls-optional' : '--tls');
  // swaks exits non-zero when TLS is required and fails; the transcript is what counts
  const output = await run('swaks', args, { timeout: 20_000 }).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? '',
  );
  return parseSwaks(output);
}

let lab: TlsLab;
let certificate: IssuedCertificate;

beforeAll(async () => {
  lab = await createTlsLab();
  certificate = await lab.issue();
});

afterAll(async () => {
  await lab.close();
});

async function both(
  variant: SmtpLabVariant,
  quitAfter: 'STARTTLS' | 'HELO' = 'STARTTLS',
  tlsOptional = false,
) {
  const server = await lab.started(startSmtpServer({ variant, certificate, name: LAB_TLS_HOST }));
  const ours: SmtpSessionResult = await runSmtpSession(lab.session(server.port), {
    host: LAB_TLS_HOST,
    port: 25,
    clientName: CLIENT_NAME,
    signal: AbortSignal.timeout(20_000),
  });
  return { ours, theirs: await swaks(server.port, quitAfter, tlsOptional) };
}

const replyOf = (result: SmtpSessionResult, kind: string) =>
  result.steps.find((step) => step.kind === kind)?.reply;

describe.skipIf(!swaksInstalled)('the session transcript matches swaks --quit-after STARTTLS', () => {
  it('a server with working STARTTLS: banner, EHLO, STARTTLS reply, TLS version and suite', async () => {
    const { ours, theirs } = await both('starttls');
    expect(replyOf(ours, 'banner')).toEqual(theirs.plain[0]);
    expect(replyOf(ours, 'ehlo')).toEqual(theirs.plain[1]);
    expect(replyOf(ours, 'starttls')).toEqual(theirs.plain[2]);
    expect(theirs.sent.slice(0, 2)).toEqual([`EHLO ${CLIENT_NAME}`, 'STARTTLS']);
    expect(ours.tls).toMatchObject({ version: theirs.tls?.version, cipher: theirs.tls?.cipher });
    // swaks, told to quit after STARTTLS, sends QUIT at once over TLS; we send EHLO again first,
    // since RFC 3207 §4.2 makes the client discard what it learnt before TLS and ask anew
    expect(theirs.sent.slice(2)).toEqual(['QUIT']);
    expect(ours.steps.map((step) => step.sent).filter(Boolean)).toEqual([
      `EHLO ${CLIENT_NAME}`,
      'STARTTLS',
      `EHLO ${CLIENT_NAME}`,
      'QUIT',
    ]);
    expect(replyOf(ours, 'quit')).toEqual(theirs.secured[0]);
  });

  it('the EHLO answer after TLS matches swaks --quit-after HELO (its second EHLO)', async () => {
    const { ours, theirs } = await both('extensions-change', 'HELO');
    expect(replyOf(ours, 'ehlo')).toEqual(theirs.plain[1]);
    expect(replyOf(ours, 'ehlo-tls')).toEqual(theirs.secured[0]);
    expect(ours.extensionsAfterTls).toEqual(['PIPELINING', 'AUTH PLAIN LOGIN', 'STARTTLS']);
  });

  it('a server without STARTTLS: both stop before TLS', async () => {
    const { ours, theirs } = await both('no-starttls', 'STARTTLS', true);
    expect(replyOf(ours, 'banner')).toEqual(theirs.plain[0]);
    expect(replyOf(ours, 'ehlo')).toEqual(theirs.plain[1]);
    expect(ours.starttlsAdvertised).toBe(false);
    expect(theirs.tls).toBeNull();
    expect(ours.tls).toBeNull();
  });

  it('STARTTLS answered 454: the same reply, and no TLS on either side', async () => {
    const { ours, theirs } = await both('starttls-454', 'STARTTLS', true);
    expect(replyOf(ours, 'starttls')).toEqual(theirs.plain[2]);
    expect(ours.steps.find((step) => step.kind === 'starttls')?.code).toBe(454);
    expect(theirs.tls).toBeNull();
    expect(ours.tls).toBeNull();
  });
});
