import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * apps/web/src/app/styles.ts loads Mantine's sheets one component at a time. A component whose sheet is missing
 * renders broken (a check icon the size of the form in every Select) while every other test
 * passes, so this proves the list complete: every Mantine component the app imports, and every
 * component those build on, has its sheet imported, in the order of Mantine's full sheet.
 */
const webSrc = path.resolve(import.meta.dirname, '../src');
const repoRoot = path.resolve(webSrc, '../../..');
const coreDir = [
  path.join(webSrc, '../node_modules/@mantine/core'),
  path.join(repoRoot, 'node_modules/@mantine/core'),
].find((dir) => existsSync(dir))!;
const esmDir = path.join(coreDir, 'esm');
const stylesDir = path.join(coreDir, 'styles');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Value names the app imports from @mantine/core (type-only imports carry no styles). */
function importedComponents(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(webSrc)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
      if (match[1] !== undefined) continue;
      for (const part of match[2]!.split(',')) {
        const name = part.trim();
        if (name === '' || name.startsWith('type ')) continue;
        names.add(name.split(/\s+as\s+/)[0]!);
      }
    }
  }
  return names;
}

/** Where @mantine/core's index takes each export from. */
function exportSources(): Map<string, string> {
  const index = readFileSync(path.join(esmDir, 'index.mjs'), 'utf8');
  const sources = new Map<string, string>();
  for (const match of index.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)) {
    for (const part of match[1]!.split(',')) {
      const [original, alias] = part.trim().split(/\s+as\s+/);
      if (original) sources.set(alias ?? original, path.join(esmDir, match[2]!));
    }
  }
  return sources;
}

/** The CSS-module names (`Combobox` of `Combobox.module.mjs`) reachable from a module. */
function styleModules(entry: string, seen = new Set<string>(), found = new Set<string>()): Set<string> {
  if (seen.has(entry)) return found;
  seen.add(entry);
  const moduleName = /([\w-]+)\.module\.mjs$/.exec(entry)?.[1];
  if (moduleName !== undefined) found.add(moduleName);
  const text = readFileSync(entry, 'utf8');
  for (const match of text.matchAll(/from\s*"(\.[^"]+)"/g)) {
    styleModules(path.resolve(path.dirname(entry), match[1]!), seen, found);
  }
  return found;
}

const stylesSource = readFileSync(path.join(webSrc, 'app/styles.ts'), 'utf8');
const importedSheets = [...stylesSource.matchAll(/import '@mantine\/core\/styles\/([\w-]+)\.css';/g)].map(
  (match) => match[1]!,
);

describe('Mantine styles', () => {
  it('imports the sheet of every Mantine component the app renders, and of those they build on', () => {
    const sources = exportSources();
    const needed = new Set<string>();
    const components = importedComponents();
    expect(components.size).toBeGreaterThan(10);
    for (const name of components) {
      const source = sources.get(name);
      if (source === undefined) continue; // a hook or utility re-exported from elsewhere
      for (const sheet of styleModules(source)) {
        if (existsSync(path.join(stylesDir, `${sheet}.css`))) needed.add(sheet);
      }
    }
    expect(needed.has('Combobox')).toBe(true);
    const missing = [...needed].filter((sheet) => !importedSheets.includes(sheet)).sort();
    expect(missing).toEqual([]);
  });

  it("imports them in the order of Mantine's full sheet, where shared bases come first", () => {
    const full = readFileSync(path.join(coreDir, 'styles.css'), 'utf8');
    const positions = importedSheets.map((sheet) => {
      const text = readFileSync(path.join(stylesDir, `${sheet}.css`), 'utf8').trim();
      const position = full.indexOf(text.slice(0, 300));
      expect(position, sheet).toBeGreaterThanOrEqual(0);
      return position;
    });
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
