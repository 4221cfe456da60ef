import {
  Badge,
  Code,
  Group,
  Stack,
  Text,
  Tree,
  getTreeExpandedState,
  useTree,
  type TreeNodeData,
} from '@mantine/core';
import type { SpfVerifyResultData } from '@rfckit/standards';
import { useEffect, useMemo, useRef } from 'react';

import type { BadgeMeaning } from '../../components/rfc-legend.tsx';

type LintNode = SpfVerifyResultData['tree'][number];

// filled colours whose text keeps a 4.5:1 contrast in both themes
const statusLabels: Record<
  LintNode['status'],
  { text: string; colour: string; textColour: string; meaning: string }
> = {
  ok: {
    text: 'record found',
    colour: 'dark.6',
    textColour: 'white',
    meaning: 'The domain has one SPF record.',
  },
  none: {
    text: 'no SPF record',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The domain has no SPF record: an include of it is a permerror (RFC 7208 §5.2).',
  },
  nxdomain: {
    text: 'domain does not exist',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The name does not exist in DNS (NXDOMAIN).',
  },
  multiple: {
    text: 'several SPF records',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The domain publishes more than one SPF record: a permerror (RFC 7208 §4.5).',
  },
  invalid: {
    text: 'invalid record',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The record breaks the SPF syntax: a permerror.',
  },
  temperror: {
    text: 'DNS failure',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'The lookup failed for now: receivers answer temperror and may try later.',
  },
  loop: {
    text: 'loop',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The record includes a domain already on the path: the evaluation would never end.',
  },
  dynamic: {
    text: 'depends on the message',
    colour: 'blue.8',
    textColour: 'white',
    meaning: 'The name holds macros: which record applies depends on the sender and the message.',
  },
};

/** Every status badge of the include tree, for the Requirement levels popover. */
export const includeTreeBadges: readonly BadgeMeaning[] = Object.values(statusLabels).map((status) => ({
  label: status.text,
  meaning: status.meaning,
  color: status.colour,
  textColor: status.textColour,
}));

/** A node's name: its domain, or what stands for it when a record was pasted without one. */
function nodeName(node: LintNode): string {
  return node.domain === '' ? 'Pasted record' : node.domain;
}

function toTreeData(nodes: readonly LintNode[], id: number, seen: Set<number>): TreeNodeData {
  const node = nodes[id]!;
  seen.add(id);
  const children = node.children.filter((child) => !seen.has(child) && nodes[child] !== undefined);
  return {
    value: String(id),
    label: nodeName(node),
    ...(children.length > 0 ? { children: children.map((child) => toTreeData(nodes, child, seen)) } : {}),
  };
}

/** A tree item's own name: without it, an item is named by the text of its whole branch. */
function summary(node: LintNode): string {
  return [
    nodeName(node),
    statusLabels[node.status].text,
    `${node.lookups} ${node.lookups === 1 ? 'lookup' : 'lookups'}`,
    ...node.errors,
  ].join(', ');
}

function NodeLabel({ node }: { node: LintNode }) {
  const status = statusLabels[node.status];
  return (
    <Stack gap={2} py={4}>
      <Group gap="xs" wrap="wrap">
        {node.viaTerm && <Code>{node.viaTerm}</Code>}
        <Text size="sm" fw={600}>
          {nodeName(node)}
        </Text>
        <Badge size="xs" radius="sm" variant="filled" color={status.colour} c={status.textColour}>
          {status.text}
        </Badge>
        {node.pasted && (
          <Badge size="xs" radius="sm" variant="outline">
            pasted
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          {node.ownLookups} own, {node.lookups} with everything under it
          {node.voidLookups > 0 ? `, ${node.voidLookups} void` : ''}
        </Text>
      </Group>
      {node.record && (
        <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {node.record}
        </Text>
      )}
      {node.errors.map((error) => (
        <Text size="xs" c="var(--mantine-color-error)" key={error} className="spf-node-error">
          {error}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * The include/redirect tree as a WAI-ARIA tree: arrow keys move, Left/Right collapse and expand,
 * and each node says what its record costs in lookups and what is wrong with it.
 */
export function IncludeTree({ nodes }: { nodes: readonly LintNode[] }) {
  const data = useMemo(() => (nodes.length === 0 ? [] : [toTreeData(nodes, 0, new Set())]), [nodes]);
  const tree = useTree({ initialExpandedState: getTreeExpandedState(data, '*') });
  const root = useRef<HTMLUListElement>(null);
  // Mantine renders the treeitem elements itself and takes no props for them: name them here
  useEffect(() => {
    for (const item of root.current?.querySelectorAll<HTMLElement>('[role=treeitem][data-value]') ?? []) {
      const node = nodes[Number(item.dataset.value)];
      if (node) item.setAttribute('aria-label', summary(node));
    }
  });
  if (data.length === 0) return null;
  return (
    <Tree
      ref={root}
      data={data}
      tree={tree}
      aria-label="Include tree"
      levelOffset="lg"
      withLines
      expandOnClick
      renderNode={({ node, expanded, hasChildren, elementProps }) => {
        const lint = nodes[Number(node.value)]!;
        return (
          <Group gap={6} wrap="nowrap" align="flex-start" {...elementProps} data-domain={lint.domain}>
            <Text span size="sm" w={14} aria-hidden="true" mt={4}>
              {hasChildren ? (expanded ? '▾' : '▸') : '•'}
            </Text>
            <NodeLabel node={lint} />
          </Group>
        );
      }}
    />
  );
}
