import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  rateLimitClassOf,
  routedOperations,
  tools,
  type OperationTable,
  type ToolDefinition,
} from '@rfckit/standards';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';

/**
 * The operation contract (docs/architecture.md): the registry, each tool's operation table, the
 * server's routes and the web app's tool pages describe the same tools. Removing any one of a
 * tool's parts fails here.
 */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const webToolsDir = path.join(repoRoot, 'apps/web/src/tools');
const serverToolsDir = path.join(repoRoot, 'apps/server/src/tools');

const built: { tool: ToolDefinition; table: OperationTable }[] = [];
const routes: { method: string; url: string }[] = [];
let app: FastifyInstance;
let dataDir: string;

beforeAll(async () => {
  for (const tool of tools) {
    if (tool.operations !== undefined) built.push({ tool, table: await tool.operations() });
  }
  dataDir = mkdtempSync(path.join(tmpdir(), 'rfckit-contract-'));
  app = await buildTestApp({ DATA_DIR: dataDir });
  await app.ready();
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /([/\w.:*-]+) \(([A-Z, ]+)\)/.exec(line.replace(/^[\s│├└─]+/, ''));
    if (match === null) continue;
    for (const method of match[2]!.split(', ')) routes.push({ method, url: match[1]! });
  }
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function directories(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

describe('the tool contract', () => {
  it('has built tools', () => {
    expect(built.map(({ tool }) => tool.id)).toEqual(
      expect.arrayContaining(['dnskey', 'spf', 'dmarc', 'dkim', 'arc', 'http-headers', 'security-txt']),
    );
  });

  it('gives every operation of a table its own tool id, a unique id and a path under the tool', () => {
    const toolIds = new Set(tools.map((tool) => tool.id));
    for (const { tool, table } of built) {
      const operations = Object.entries(table);
      expect(operations.length, tool.id).toBeGreaterThan(0);
      for (const [key, operation] of operations) {
        expect(operation.tool, `${tool.id}.${key}`).toBe(tool.id);
        expect(operation.id, `${tool.id}.${key}`).toBe(key);
        expect(operation.path.startsWith(`/${tool.id}/`)).toBe(true);
        // an alias may name the standard (/dnssec/chain), never another tool's path space
        for (const alias of operation.aliases) {
          const root = alias.split('/')[1] ?? '';
          expect(root === tool.id || !toolIds.has(root), alias).toBe(true);
        }
      }
    }
    const paths = built.flatMap(({ table }) =>
      Object.values(table).flatMap((operation) => [operation.path, ...operation.aliases]),
    );
    expect(new Set(paths).size, 'tool paths').toBe(paths.length);
  });

  it('declares the rate-limit class spec part 1 §9 gives the path', () => {
    for (const { table } of built) {
      for (const operation of Object.values(table)) {
        for (const url of [operation.path, ...operation.aliases])
          expect(operation.rateLimit, url).toBe(rateLimitClassOf(`/v1${url}`));
      }
    }
  });

  it('serves every routed operation under /v1 and /api/v1, and no other tool route', () => {
    const expected = built.flatMap(({ table }) =>
      routedOperations(table).flatMap((operation) =>
        [operation.path, ...operation.aliases].flatMap((url) => [
          `${operation.method} /v1${url}`,
          `${operation.method} /api/v1${url}`,
        ]),
      ),
    );
    // every tool's path space, and the roots aliases add (/dnssec)
    const toolRoots = new Set([
      ...tools.map((tool) => tool.id),
      ...built.flatMap(({ table }) =>
        Object.values(table).flatMap((operation) => operation.aliases.map((alias) => alias.split('/')[1])),
      ),
    ]);
    const served = routes
      .filter(({ method, url }) => method !== 'HEAD' && method !== 'OPTIONS' && url !== '*')
      .filter(({ url }) => toolRoots.has(url.replace(/^(?:\/api)?\/v1\//, '').split('/')[0] ?? ''))
      .map(({ method, url }) => `${method} ${url}`);
    expect([...served].sort()).toEqual([...expected].sort());
  });

  it('has a server handlers module exactly for the tools with routed operations', () => {
    const routed = built
      .filter(({ table }) => routedOperations(table).length > 0)
      .map(({ tool }) => tool.id)
      .sort();
    const withHandlers = directories(serverToolsDir).filter((id) =>
      existsSync(path.join(serverToolsDir, id, 'handlers.ts')),
    );
    expect(withHandlers).toEqual(routed);
  });

  it('has a web page exactly for the built tools, and every page folder is a registry tool', () => {
    const pages = directories(webToolsDir).filter((id) => existsSync(path.join(webToolsDir, id, 'page.tsx')));
    expect(pages).toEqual(built.map(({ tool }) => tool.id).sort());
    expect(directories(webToolsDir)).toEqual(pages);
  });
});
