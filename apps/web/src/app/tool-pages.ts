import { toolGroups, tools, type ToolDefinition, type ToolGroup } from '@rfckit/standards';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// every tools/<id>/page.tsx, each its own lazily loaded chunk: a new tool folder needs no edit here
const pageModules = import.meta.glob<{ default: ComponentType }>('../tools/*/page.tsx');

/** The registry tool id of a page module path: the folder name. */
function toolIdOf(path: string): string {
  return path.split('/').at(-2) ?? path;
}

/**
 * The one map from registry tool id to its page. Routes, sidebar, footer and the welcome list are
 * all generated from it, so a tool appears everywhere the moment its folder has a page.tsx.
 */
export const toolPages: Readonly<Record<string, LazyExoticComponent<ComponentType>>> = Object.fromEntries(
  Object.entries(pageModules).map(([path, load]) => [toolIdOf(path), lazy(load)]),
);

/** Registry tools that have a page, in registry order. */
export const toolsWithPages: readonly ToolDefinition[] = tools.filter((tool) =>
  Object.hasOwn(toolPages, tool.id),
);

export interface ToolNavGroup {
  group: ToolGroup;
  tools: readonly ToolDefinition[];
}

/** The registry's groups in order, each with its tools that have pages; empty groups are left out. */
export const toolNavGroups: readonly ToolNavGroup[] = toolGroups
  .map((group) => ({ group, tools: toolsWithPages.filter((tool) => tool.group === group) }))
  .filter((entry) => entry.tools.length > 0);
