import { readFile } from 'node:fs/promises';
import { type HstsPreloadEntry, type HstsPreloadLookup, hstsPreloadList } from '@rfckit/standards';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Chromium's HSTS preload list from HSTS_PRELOAD_FILE, or undefined when none is configured. */
    hstsPreload: HstsPreloadLookup | undefined;
  }
}

/**
 * The entries of Chromium's `transport_security_state_static.json`: JSON with `//` comment lines,
 * `{ "entries": [{ "name", "mode", "include_subdomains" }, …] }`.
 */
export function parseHstsPreloadFile(text: string): HstsPreloadEntry[] {
  const json = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n');
  const parsed: unknown = JSON.parse(json);
  const entries = (parsed as { entries?: unknown }).entries;
  if (!Array.isArray(entries)) throw new Error('it has no "entries" list');
  return entries.flatMap((entry: unknown): HstsPreloadEntry[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { name, mode, include_subdomains: includeSubdomains } = entry as Record<string, unknown>;
    if (typeof name !== 'string') return [];
    return [
      {
        name,
        ...(typeof mode === 'string' ? { mode } : {}),
        ...(typeof includeSubdomains === 'boolean' ? { include_subdomains: includeSubdomains } : {}),
      },
    ];
  });
}

/**
 * Loads the HSTS preload list once at start, so the Analyser can give the Observatory's
 * `hsts-preloaded` and `redirection-all-redirects-preloaded` results. Without the file the
 * analyses say the list was not consulted. The list changes weekly: restart to load a new copy.
 */
export default fp(
  async (app) => {
    const file = app.config.hstsPreloadFile;
    if (file === undefined) {
      app.decorate('hstsPreload', undefined);
      return;
    }
    let entries: HstsPreloadEntry[];
    try {
      entries = parseHstsPreloadFile(await readFile(file, 'utf8'));
    } catch (error) {
      throw new Error(
        `HSTS_PRELOAD_FILE: cannot read the preload list in ${file}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    app.log.info({ file, entries: entries.length }, 'HSTS preload list loaded');
    app.decorate('hstsPreload', hstsPreloadList(entries));
  },
  { name: 'hsts-preload' },
);
