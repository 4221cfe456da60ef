import { toolGroups, tools, type ToolDefinition, type ToolGroup } from '@rfckit/standards';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * The one map from registry tool id to its page. Routes, sidebar, footer and the welcome list are
 * all generated from it, so a tool appears everywhere the moment its page is added here. Each page
 * is its own lazily loaded chunk.
 */
export const toolPages: Readonly<Record<string, LazyExoticComponent<ComponentType>>> = {
  arc: lazy(() => import('../tools/arc/page.tsx')),
  dkim: lazy(() => import('../tools/dkim/page.tsx')),
  dmarc: lazy(() => import('../tools/dmarc/page.tsx')),
  dnskey: lazy(() => import('../tools/dnskey/page.tsx')),
  'http-headers': lazy(() => import('../tools/http-headers/page.tsx')),
  'security-txt': lazy(() => import('../tools/security-txt/page.tsx')),
  spf: lazy(() => import('../tools/spf/page.tsx')),
};

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
