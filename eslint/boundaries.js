// Import boundaries of docs/architecture.md §1, derived from where a file sits, so that a new tool
// folder is covered without editing any rule.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtins = new Set(builtinModules);
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

/** The workspace packages as folders relative to the root ("apps/web"), from package.json. */
const workspaces = readJson('package.json').workspaces.flatMap((entry) =>
  entry.endsWith('/*')
    ? readdirSync(path.join(root, entry.slice(0, -2)), { withFileTypes: true })
        .filter((dirent) => dirent.isDirectory())
        .map((dirent) => `${entry.slice(0, -2)}/${dirent.name}`)
    : [entry],
);

/** The npm packages standards may import: its own dependencies (it runs in the browser too). */
const standardsPackage = readJson('packages/standards/package.json');
const standardsDependencies = new Set(
  Object.keys({ ...standardsPackage.dependencies, ...standardsPackage.peerDependencies }),
);

/** The workspace folder `file` belongs to, or undefined for root tooling (bench/, e2e/ …). */
function workspaceOf(file) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  return workspaces.find((workspace) => rel === workspace || rel.startsWith(`${workspace}/`));
}

/** `zod` of "zod/mini", `@scope/name` of "@scope/name/sub". */
function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Where a file sits: { area, part, name } — e.g. standards tool "dnskey", web tools "dnskey". */
export function zoneOf(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === 'packages' && rel[1] === 'standards' && rel[2] === 'src') {
    if (rel.length === 4) return { area: 'standards', part: 'root' };
    if (rel[3] === 'core') return { area: 'standards', part: 'core' };
    // a folder with an operation table is a tool; one without is knowledge tools share (dnssec/)
    const isTool = existsSync(path.join(root, 'packages/standards/src', rel[3], 'operations.ts'));
    return { area: 'standards', part: isTool ? 'tool' : 'library', name: rel[3] };
  }
  if (rel[0] === 'apps' && rel[1] === 'server') {
    const test = rel[2] === 'test' || rel.at(-1).includes('.test.');
    if (rel[2] !== 'src') return { area: 'server', test };
    const part = rel.length === 4 ? 'root' : rel[3];
    // a folder under tools/ is one tool; the files beside the folders are shared
    const name = part === 'tools' && rel.length > 5 ? rel[4] : undefined;
    return { area: 'server', test, part, name };
  }
  if (rel[0] === 'apps' && rel[1] === 'web' && rel[2] === 'src') {
    const part = rel.length === 4 ? 'root' : rel[3];
    const named = part === 'tools' || part === 'features';
    return { area: 'web', part, name: named ? rel[4] : undefined };
  }
  if (rel[0] === 'apps' && rel[1] === 'web') return { area: 'web', part: 'config' };
  return { area: 'other' };
}

function isBuiltin(spec) {
  return spec.startsWith('node:') || builtins.has(spec.split('/')[0]);
}

/** Returns why `spec`, imported from `file`, crosses a boundary, or null. */
export function violation(file, spec) {
  const from = zoneOf(file);
  const relative = spec.startsWith('.');
  const target = relative ? path.resolve(path.dirname(file), spec) : null;
  const to = target === null ? null : zoneOf(target);

  if (from.area === 'standards') {
    if (
      !relative &&
      (isBuiltin(spec) || spec === 'react' || spec.startsWith('react/') || spec.startsWith('react-dom'))
    )
      return `standards is pure and runs in the browser too: it may not import "${spec}"`;
    if (!relative && spec.startsWith('@rfckit/')) return 'standards imports no other workspace';
    // tests run under Node with the dev tooling (vitest …); the library itself ships to browsers
    const test = path.basename(file).includes('.test.');
    if (!relative && !test && !isBuiltin(spec) && !standardsDependencies.has(packageName(spec)))
      return `standards may import only its dependencies (${[...standardsDependencies].sort().join(', ')}): not "${spec}"`;
    if (to && to.area !== 'standards') return 'standards may not reach outside its package';
    if (to && from.part === 'tool' && to.part === 'tool' && to.name !== from.name)
      return `tool "${from.name}" may not import sibling tool "${to.name}": share through core/`;
    if (to && from.part === 'core' && (to.part === 'tool' || to.part === 'library'))
      return `core/ may not depend on ${to.part === 'tool' ? 'a tool folder' : `"${to.name}"`}: it is the bottom layer`;
    if (to && from.part === 'library' && to.part === 'tool')
      return `shared standard "${from.name}" may not import tool "${to.name}": tools build on it, not the other way round`;
  }
  if (from.area === 'server') {
    if (spec.startsWith('@rfckit/web') || (to && to.area === 'web'))
      return 'server and web meet over HTTP only';
    if (spec.startsWith('@rfckit/testlab') && !from.test)
      return 'the network lab is for tests and benchmarks only: the server may not import it';
    if (to && to.area === 'server' && to.part === 'routes' && (from.part === 'db' || from.part === 'plugins'))
      return `${from.part}/ may not import routes/: routes build on ${from.part}/, not the other way round`;
    if (to && from.part === 'tools' && to.part === 'tools' && from.name && to.name && to.name !== from.name)
      return `tool "${from.name}" may not import sibling tool "${to.name}": share through tools/*.ts or another src/ folder`;
  }
  if (from.area === 'web' && spec.startsWith('@rfckit/testlab'))
    return 'the network lab is for tests and benchmarks only';
  if (from.area === 'web') {
    if (spec.startsWith('@rfckit/server') || (to && to.area === 'server'))
      return 'server and web meet over HTTP only';
    if (from.part !== 'config' && !relative && isBuiltin(spec))
      return `the web app runs in the browser: no "${spec}"`;
    // test/ holds render helpers for tests: it may wire anything together, as app/ does
    if (to && to.area === 'web' && from.part !== 'test') {
      if (
        (from.part === 'components' || from.part === 'lib') &&
        (to.part === 'features' || to.part === 'tools')
      )
        return `${from.part}/ may not import ${to.part}/: features and tools meet only in app/`;
      if (to.part === 'app' && from.part !== 'app' && from.part !== 'root')
        return 'only app/ and the entry may import app/';
      if (from.part === 'tools' && to.part === 'tools' && to.name !== from.name)
        return `tool "${from.name}" may not import sibling tool "${to.name}"`;
      if (from.part === 'tools' && to.part === 'features')
        return 'tools may not import features: they meet in app/';
      if (from.part === 'features' && to.part === 'tools')
        return 'features may not import tools: they meet in app/';
      if (from.part === 'features' && to.part === 'features' && to.name !== from.name)
        return `feature "${from.name}" may not import feature "${to.name}"`;
    }
  }
  // a package uses another through its name and exports; root tooling (bench/, e2e/ …) may reach
  // into sources
  const own = workspaceOf(file);
  const reached = target === null ? undefined : workspaceOf(target);
  if (own !== undefined && reached !== undefined && reached !== own)
    return `${own} may not reach into ${reached} by a relative path: import it by its package name`;
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import boundaries of docs/architecture.md §1' },
    schema: [],
    messages: { crossed: '{{why}}' },
  },
  create(context) {
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const why = violation(context.filename, node.source.value);
      if (why) context.report({ node: node.source, messageId: 'crossed', data: { why } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { imports: rule } };
