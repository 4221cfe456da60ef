import { tools } from '@rfckit/standards';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';

import { appRoutes } from './routes.tsx';
import { toolNavGroups, toolPages } from './tool-pages.ts';

function routePaths(routes: RouteObject[]): string[] {
  return routes.flatMap((route) => [
    ...(route.path ? [route.path] : []),
    ...routePaths(route.children ?? []),
  ]);
}

describe('tool pages and the registry', () => {
  const paths = routePaths(appRoutes);

  it('maps only registry ids to pages', () => {
    const ids = new Set(tools.map((tool) => tool.id));
    for (const id of Object.keys(toolPages)) expect(ids, `'${id}' is not a registry tool id`).toContain(id);
  });

  it('has a page folder named after each registry tool id, and one for every tool with operations', () => {
    const folders = Object.keys(import.meta.glob('../tools/*/page.tsx')).map((path) =>
      path.split('/').at(-2),
    );
    expect(folders.toSorted()).toEqual(Object.keys(toolPages).toSorted());
    for (const tool of tools.filter((t) => t.operations !== undefined)) {
      expect(
        Object.hasOwn(toolPages, tool.id),
        `${tool.id} has operations but no tools/${tool.id}/page.tsx`,
      ).toBe(true);
    }
  });

  it('routes every registry tool that has a page, and no other', () => {
    for (const tool of tools) {
      const hasPage = Object.hasOwn(toolPages, tool.id);
      expect(
        paths.includes(tool.route),
        `${tool.route}: page ${hasPage ? 'without' : 'but no page for a'} route`,
      ).toBe(hasPage);
    }
  });

  it('has no tool route that the registry does not know', () => {
    const registryRoutes = new Set<string>(tools.map((tool) => tool.route));
    for (const path of paths.filter((p) => p.startsWith('/tools/'))) expect(registryRoutes).toContain(path);
  });

  it('lists sidebar groups in registry order with only routed tools', () => {
    for (const { tools: groupTools } of toolNavGroups) {
      expect(groupTools.length).toBeGreaterThan(0);
      for (const tool of groupTools) expect(paths).toContain(tool.route);
    }
  });
});
