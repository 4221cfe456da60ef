// The server for browser journeys, with its mail going over real SMTP: a loopback smtp-server
// receives every message and files it where e2e/mail.ts reads it, then the real server starts
// with SMTP_URL pointing there.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const dataDir = process.env.DATA_DIR;
if (dataDir === undefined) throw new Error('e2e/serve.ts needs DATA_DIR');
const inbox = path.join(dataDir, 'smtp-inbox');
mkdirSync(inbox, { recursive: true });

/** The kind of message, from its subject, as the outbox names files: verify, email-change, reset, invitation. */
function kindOf(raw: string): string {
  const subject = /^Subject: (.*)$/im.exec(raw)?.[1] ?? '';
  // first: an organisation's name inside this subject could read like another kind's words
  if (/^invitation to join /i.test(subject)) return 'invitation';
  if (/new email address/i.test(subject)) return 'email-change';
  if (/confirm your email address/i.test(subject)) return 'verify';
  if (/reset your .*password/i.test(subject)) return 'reset';
  return 'other';
}

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received += 1;
      const name = `${String(Date.now()).padStart(15, '0')}-${String(received).padStart(5, '0')}-${kindOf(raw)}.eml`;
      writeFileSync(path.join(inbox, name), raw);
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
await import('../apps/server/src/server.ts');
