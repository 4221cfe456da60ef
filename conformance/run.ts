// Runs the public conformance suites in CONFORMANCE_DIR (default ../shared/conformance)
// with Node's test runner. Not part of `npm test`: the data lives outside the repo.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const repoRoot = path.resolve(import.meta.dirname, '..');
const conformanceDir = path.resolve(repoRoot, process.env.CONFORMANCE_DIR ?? '../shared/conformance');

if (!existsSync(conformanceDir) || !statSync(conformanceDir).isDirectory()) {
  console.error(
    `Conformance data not found at ${conformanceDir}.\n` +
      'Set CONFORMANCE_DIR to the folder holding the public suites (vectors.md, spf/, dkim/ …).',
  );
  process.exit(1);
}

const suitesDir = path.join(import.meta.dirname, 'suites');
const suites = readdirSync(suitesDir)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.join(suitesDir, f));

console.log(`Conformance data: ${conformanceDir}`);
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...suites], {
  stdio: 'inherit',
  env: { ...process.env, CONFORMANCE_DIR: conformanceDir },
});
process.exit(result.status ?? 1);
