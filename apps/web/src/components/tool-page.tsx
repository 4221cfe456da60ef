import { Anchor, Badge, Group, Stack, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { findTool, type ToolDefinition } from '@rfckit/standards';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { RfcLegend, type BadgeMeaning } from './rfc-legend.tsx';

const tabLabels = { information: 'Information', generator: 'Generator', validator: 'Validator' } as const;
type TabValue = keyof typeof tabLabels;

/** A tab only some tools have, e.g. the headers Analyser or the TLS Tester; shown after Information. */
export interface ExtraTab {
  /** Its `?tab=` value. */
  value: string;
  label: string;
  panel: ReactNode;
}

interface ToolPageProps {
  /** The registry id (the page's folder name under tools/). */
  id: string;
  /** The Information tab; alone (no other tab given), the whole page without a tab list. */
  information: ReactNode;
  generator?: ReactNode;
  validator?: ReactNode;
  extraTabs?: readonly ExtraTab[];
  /** Tabs after the standard ones, e.g. the TLS tool's Recommendations after its Validator. */
  trailingTabs?: readonly ExtraTab[];
  /** Shown between the header and the tabs, e.g. the TLS tool's database counts. */
  summary?: ReactNode;
  /** The tool's own result badges (a check's outcome, a status), explained in the Requirement levels popover. */
  resultBadges?: readonly BadgeMeaning[];
}

const tabsStyles = {
  list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'thin' },
  tab: { flexShrink: 0 },
} as const;

/** Links an `RFC nnnn` reference to the RFC Editor; other standards stay plain text. */
function StandardReference({ name }: { name: string }) {
  const match = /^RFC (\d+)$/.exec(name);
  if (!match) return <Text span>{name}</Text>;
  return (
    <Anchor href={`https://www.rfc-editor.org/rfc/rfc${match[1]}`} target="_blank" rel="noreferrer">
      {name}
    </Anchor>
  );
}

function registryTool(id: string): ToolDefinition {
  const tool = findTool(id);
  if (!tool) throw new Error(`The tool registry has no ${id} entry`);
  return tool;
}

/**
 * The frame of every tool page: name, standards and draft mark from the registry, the Requirement levels popover
 * and the tabs the tool provides. The open tab lives in `?tab=` so a reload keeps it.
 */
export function ToolPage({
  id,
  information,
  generator,
  validator,
  extraTabs = [],
  trailingTabs = [],
  summary,
  resultBadges = [],
}: ToolPageProps) {
  const tool = registryTool(id);
  useDocumentTitle(`${tool.name} · rfckit`);
  const [searchParams, setSearchParams] = useSearchParams();
  const panels: Partial<Record<TabValue, ReactNode>> = { information, generator, validator };
  const standard = (Object.keys(tabLabels) as TabValue[])
    .filter((value) => panels[value] !== undefined)
    .map((value) => ({ value: value as string, label: tabLabels[value], panel: panels[value] }));
  const tabs = [standard[0]!, ...extraTabs, ...standard.slice(1), ...trailingTabs];
  const available = tabs.map((tab) => tab.value);
  const requested = searchParams.get('tab');
  const active = available.find((value) => value === requested) ?? 'information';

  // each tab a history entry: Back returns to the tab before, and the address can be shared
  function selectTab(value: string | null) {
    if (value === null || value === active) return;
    setSearchParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value === 'information') next.delete('tab');
      else next.set('tab', value);
      return next;
    });
  }

  return (
    <Stack gap="lg">
      <header>
        <Group gap="sm" align="center">
          <Title order={1}>{tool.name}</Title>
          {tool.draft && (
            <Badge color="yellow.4" c="black" variant="filled" radius="sm">
              draft
            </Badge>
          )}
        </Group>
        <Text c="dimmed" mt={4}>
          {tool.summary}
        </Text>
        <Group gap="xs" mt="xs" justify="space-between" align="center">
          <Group gap="xs">
            <Text span size="sm" fw={600}>
              Standards:
            </Text>
            {tool.rfcs.map((rfc, index) => (
              <Text span size="sm" key={rfc}>
                <StandardReference name={rfc} />
                {index < tool.rfcs.length - 1 ? ',' : ''}
              </Text>
            ))}
          </Group>
          <RfcLegend toolBadges={resultBadges} />
        </Group>
      </header>

      {/* the level-2 heading the tabs' sections and results follow, for heading navigation */}
      <VisuallyHidden>
        <Title order={2}>{tool.name} sections</Title>
      </VisuallyHidden>

      {summary}

      {/* a tool with one part only (the spec's single TLS-RPT page) has no tab list */}
      {tabs.length === 1 ? (
        tabs[0]?.panel
      ) : (
        /* on a phone the tabs stay on one line and scroll sideways rather than wrap */
        <Tabs value={active} onChange={selectTab} keepMounted styles={tabsStyles}>
          <Tabs.List aria-label={`${tool.name} sections`}>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Panel key={tab.value} value={tab.value} pt="lg">
              {tab.panel}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Stack>
  );
}
