import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
}

export interface SmtpCapture {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first message (already received or still to come) that `match` accepts. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Variables that send the app's mail to `smtp`, with links from https://rfckit.example.org/. */
export function smtpEnv(smtp: SmtpCapture): Record<string, string> {
  return {
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://rfckit.example.org/',
    MAIL_FROM: 'rfckit test <robot@rfckit.example.org>',
  };
}

/** A real SMTP server on 127.0.0.1 that keeps every message it receives. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // its default PTR lookup of each client would ask the system's (non-loopback) DNS servers
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = messages.find(match);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('no matching mail arrived'));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable soft line breaks and escapes, so links read as written. */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The `token` parameter of the first link in a raw message. */
export function tokenFromMail(raw: string): string {
  const match = /[?&]token=([A-Za-z0-9_%-]+)/.exec(decodeQuotedPrintable(raw));
  if (!match?.[1]) throw new Error(`no token link in the message:\n${raw}`);
  return decodeURIComponent(match[1]);
}

export interface OutboxMail {
  file: string;
  raw: string;
}

/** The .eml files of DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => ({ file: name, raw: readFileSync(path.join(dir, name), 'utf8') }));
}

/** Polls the outbox until a message of `kind` addressed to `to` appears (ignoring the first `skip` files). */
export async function waitForOutbox(
  dataDir: string,
  to: string,
  kind: string,
  options: { skip?: number; timeoutMs?: number } = {},
): Promise<OutboxMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  const recipient = new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\r?$`, 'mi');
  for (;;) {
    const found = readOutbox(dataDir)
      .slice(options.skip ?? 0)
      .find((mail) => mail.file.endsWith(`Z-${kind}.eml`) && recipient.test(mail.raw));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${kind} mail to ${to} in the outbox`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
