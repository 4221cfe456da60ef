// Debian's Python with dkimpy, the independent DKIM/ARC implementation the interop tests check
// against when it is installed (python3-dkim); without it they use results recorded from it.
import { execFileSync } from 'node:child_process';

const PYTHON = '/usr/bin/python3';

/** Whether this machine's Python can import every one of `modules`. */
export function hasPythonModules(...modules: string[]): boolean {
  try {
    execFileSync(PYTHON, ['-c', `import ${modules.join(', ')}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The start of a dkimpy script: the request (JSON on stdin) as `req`, and a `dnsfunc` that
 * answers key lookups from its `keys` (name to TXT record) instead of DNS.
 */
export const DKIMPY_PRELUDE = `
import sys, json, base64, dkim
req = json.load(sys.stdin)
def dnsfunc(name, timeout=5):
    v = req['keys'].get(name.decode().rstrip('.').lower())
    return v.encode() if v is not None else None
`;

/** Runs `script` with `input` as JSON on stdin and returns what it prints, read as JSON. */
export function runPythonJson<T>(script: string, input: unknown): T {
  const out = execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(input) });
  return JSON.parse(out.toString()) as T;
}
