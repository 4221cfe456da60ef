// BIND's delv (bind9-dnsutils) as an independent validator of the DNSSEC lab: it asks the lab DNS
// server, validates from the lab root's trust anchor and says what it concluded.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { hasProgram } from '@rfckit/testlab';

const run = promisify(execFile);
const DELV_TIMEOUT_MS = 20_000;

export const delvInstalled = hasProgram('delv');
// CI installs delv (.ci/run): there a missing one is a broken setup, not a reason to skip
if (!delvInstalled && process.env.CI === 'true') {
  throw new Error('CI is set but delv is not on PATH: apt-get install bind9-dnsutils (.ci/run does)');
}

export type DelvVerdict =
  /** `; fully validated`, or `; negative response, fully validated` (`negative`). */
  | { status: 'validated'; negative: boolean; output: string }
  /** `; unsigned answer`: a proven insecure delegation on the way. */
  | { status: 'unsigned'; output: string }
  /** `;; resolution failed: <reason>` with no validated answer. */
  | { status: 'failed'; reason: string; output: string };

/**
 * The `trust-anchors` statement delv's `-a` reads, from DS and DNSKEY lines for `.` in the
 * DNSSEC_TRUST_ANCHORS format (`. IN DS 12345 13 2 ABCD…`, as dnssec-dsfromkey writes them).
 */
export function delvTrustAnchors(text: string): string {
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    const fields = line
      .replace(/[;#].*$/, '')
      .trim()
      .split(/\s+/);
    if (fields.length < 2 || fields[0] !== '.') continue;
    const at = fields.findIndex((field) => field === 'DS' || field === 'DNSKEY');
    if (at < 0) continue;
    const [a, b, c, ...rest] = fields.slice(at + 1);
    const kind = fields[at] === 'DS' ? 'static-ds' : 'static-key';
    entries.push(`  . ${kind} ${a} ${b} ${c} "${rest.join('')}";`);
  }
  if (entries.length === 0) throw new Error('delv: no DS or DNSKEY record for . in the trust anchors');
  return `trust-anchors {\n${entries.join('\n')}\n};\n`;
}

/** What delv concludes about `name`/`type` asked of the lab server, validating from `anchorFile`. */
export async function runDelv(options: {
  server: { host: string; port: number };
  name: string;
  type: string;
  /** A DNSSEC_TRUST_ANCHORS file (the lab's `trustAnchorFile`). */
  anchorFile: string;
}): Promise<DelvVerdict> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rfckit-delv-'));
  try {
    const config = path.join(dir, 'anchors.conf');
    await writeFile(config, delvTrustAnchors(await readFile(options.anchorFile, 'utf8')));
    const args = [
      `@${options.server.host}`,
      '-p',
      String(options.server.port),
      '-a',
      config,
      // validate from the lab root's anchor in that file, not BIND's built-in IANA anchor
      '+root=.',
      options.name,
      options.type,
    ];
    let output: string;
    try {
      const { stdout, stderr } = await run('delv', args, { timeout: DELV_TIMEOUT_MS });
      output = `${stderr}${stdout}`;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; killed?: boolean };
      if (failed.killed) throw new Error(`delv did not finish in ${DELV_TIMEOUT_MS} ms`, { cause: error });
      output = `${failed.stderr ?? ''}${failed.stdout ?? ''}`;
    }
    if (/^; negative response, fully validated/m.test(output))
      return { status: 'validated', negative: true, output };
    if (/^; fully validated/m.test(output)) return { status: 'validated', negative: false, output };
    if (/^; unsigned answer/m.test(output)) return { status: 'unsigned', output };
    const reason = /^;; resolution failed: (.+)$/m.exec(output)?.[1] ?? 'no verdict';
    return { status: 'failed', reason, output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
