import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { e2eDataDir } from './paths.ts';

/** Where e2e/serve.ts files the mail its SMTP server receives from the app (under playwright.config.ts's DATA_DIR). */
const outbox = path.join(e2eDataDir, 'smtp-inbox');

export type MailKind = 'verify' | 'reset' | 'invitation';

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The text/plain part of a message, decoded. */
function plainText(raw: string): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const part of parts) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split);
    if (!/content-type:\s*text\/plain/i.test(headers)) continue;
    const body = part.slice(split).trim();
    if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) return decodeQuotedPrintable(body);
    if (/content-transfer-encoding:\s*base64/i.test(headers))
      return Buffer.from(body, 'base64').toString('utf8');
    return body;
  }
  throw new Error('the message has no text/plain part');
}

async function newestLink(to: string, kind: MailKind, after: number): Promise<string | null> {
  let files: string[];
  try {
    files = (await readdir(outbox)).filter((name) => name.endsWith('.eml') && name.includes(`-${kind}`));
  } catch {
    return null;
  }
  // names start with the time of writing: newest last
  for (const name of files.sort().reverse()) {
    const raw = await readFile(path.join(outbox, name), 'utf8');
    if (!new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\r?$`, 'im').test(raw)) continue;
    const link = /https?:\/\/\S+[?&]token=[A-Za-z0-9_-]+/.exec(plainText(raw))?.[0];
    if (link === undefined) continue;
    if ((await stat(path.join(outbox, name))).mtimeMs < after) return null;
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  }
  return null;
}

/**
 * Waits for the newest mail of `kind` to `to` and answers its link as a path on the app's origin.
 * `after` (epoch ms) skips messages written before it, e.g. an earlier reset link.
 */
export async function mailedLink(to: string, kind: MailKind, after = 0): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(async () => (link = await newestLink(to, kind, after)), { timeout: 10_000 })
    .not.toBeNull();
  return link!;
}
