import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export const OUTBOX_DIR = 'outbox';

export interface MailMessage {
  /** Names the outbox file and the log line: verify, reset, email-change. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link inside, logged when there is no SMTP relay so a local admin can follow it. */
  link: string;
}

/** The part of a pino/Fastify logger the mailer uses (the admin command passes its own). */
export interface MailLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: MailLog;
}

export interface Mailer {
  /** Delivers one message: to the SMTP relay, or to the log and `DATA_DIR/outbox/<time>-<kind>.eml`. */
  send(message: MailMessage): Promise<void>;
  /** Sends without making the caller wait (nor learn the outcome); failures are logged. */
  sendInBackground(message: MailMessage | (() => Promise<MailMessage | undefined>)): void;
  /** Resolves when every background send has settled. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** `2026-01-31T12-00-00.000Z`: ISO 8601 with the colons some file systems refuse replaced. */
function fileTime(now: Date): string {
  return now.toISOString().replaceAll(':', '-');
}

async function writeOutbox(dir: string, kind: string, raw: Buffer): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stem = `${fileTime(new Date())}-${kind.replace(/[^a-z0-9-]/gi, '')}`;
  for (let attempt = 0; ; attempt += 1) {
    const file = path.join(dir, attempt === 0 ? `${stem}.eml` : `${stem}-${attempt}.eml`);
    try {
      await writeFile(file, raw, { mode: 0o600, flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 100) throw error;
    }
  }
}

export function createMailer(options: MailerOptions): Mailer {
  const { log } = options;
  const outbox = path.join(options.dataDir, OUTBOX_DIR);
  const smtp = options.smtpUrl === undefined ? undefined : nodemailer.createTransport(options.smtpUrl);
  // builds the same RFC 5322 message an SMTP relay would receive, as bytes
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const pending = new Set<Promise<void>>();

  async function send(message: MailMessage): Promise<void> {
    const envelope = {
      from: options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    };
    if (smtp !== undefined) {
      await smtp.sendMail(envelope);
      log.info({ kind: message.kind, to: message.to }, 'mail sent');
      return;
    }
    const info = await stream.sendMail(envelope);
    const file = await writeOutbox(outbox, message.kind, info.message as Buffer);
    log.info(
      { kind: message.kind, to: message.to, link: message.link, file },
      `mail written to the outbox (SMTP_URL is unset): ${message.link}`,
    );
  }

  return {
    send,
    sendInBackground(message) {
      const task = (async () => {
        const built = typeof message === 'function' ? await message() : message;
        if (built !== undefined) await send(built);
      })().catch((error: unknown) => {
        log.error({ err: error }, 'sending mail failed');
      });
      pending.add(task);
      void task.finally(() => pending.delete(task));
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      await this.idle();
      smtp?.close();
      stream.close();
    },
  };
}
