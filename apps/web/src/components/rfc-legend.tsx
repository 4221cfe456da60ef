import { Badge, Box, Button, Popover, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';

import { severityColour, wordings } from './diagnostic-list.tsx';
import { keywordNote, requirementStyles, requirementWords } from './requirement-levels.ts';

/** A result badge a tool shows (a check's outcome, a destination's status …) and what it means. */
export interface BadgeMeaning {
  label: string;
  meaning: string;
  /** The badge's colours where the tool draws it filled. */
  color?: string;
  textColor?: string;
}

const severityMeaning = {
  error: 'Breaks the standard: receivers may ignore or reject the configuration. Fix it first.',
  warning: 'Allowed, but risky, discouraged or likely not what you meant. Fix it when you can.',
  info: 'Worth knowing; nothing to change unless it does not match what you intended.',
} as const;

/** Every badge a finding can carry: its severity, as each wording names it (diagnostic-list.tsx). */
export const findingBadges: readonly BadgeMeaning[] = (['error', 'warning', 'info'] as const).flatMap(
  (severity) => {
    const labels = new Set(Object.values(wordings).map((wording) => wording[severity].label));
    return [...labels].map((label) => ({
      label,
      meaning: severityMeaning[severity],
      color: severityColour[severity].color,
      textColor: severityColour[severity].text,
    }));
  },
);

function MeaningList({ label, items }: { label: string; items: readonly BadgeMeaning[] }) {
  return (
    <Box
      component="dl"
      m={0}
      aria-label={label}
      style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 6 }}
    >
      {items.map((item) => (
        <Box key={item.label} style={{ display: 'contents' }}>
          <Box component="dt" style={{ justifySelf: 'start' }}>
            <Badge
              component="span"
              size="sm"
              radius="sm"
              variant={item.color ? 'filled' : 'outline'}
              {...(item.color ? { color: item.color } : {})}
              {...(item.textColor ? { c: item.textColor } : {})}
              styles={{ root: { maxWidth: 'none' }, label: { overflow: 'visible' } }}
            >
              {item.label}
            </Badge>
          </Box>
          <Text component="dd" size="xs" m={0}>
            {item.meaning}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

const requirementItems: readonly BadgeMeaning[] = requirementWords.map(({ word, level }) => {
  const style = requirementStyles[level];
  return {
    label: word,
    meaning:
      word === level
        ? style.short
        : `Means ${level}: ${style.short.charAt(0).toLowerCase()}${style.short.slice(1)}`,
    color: style.background,
    textColor: style.text,
  };
});

/**
 * The "Requirement levels" button of every tool page: a popover listing every badge the page can show
 * with its meaning (RFC 2119 and RFC 8174 keywords, finding severities and the tool's own statuses).
 * Mantine's Popover traps focus while open, closes on Escape and returns focus to the button.
 */
export function RfcLegend({ toolBadges = [] }: { toolBadges?: readonly BadgeMeaning[] }) {
  const headingId = useId();
  return (
    <Popover
      width={380}
      position="bottom-start"
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      closeOnEscape
      middlewares={{ shift: { padding: 8 }, flip: true, size: { padding: 8 } }}
    >
      <Popover.Target>
        <Button variant="default" size="xs">
          Requirement levels
        </Button>
      </Popover.Target>
      <Popover.Dropdown
        aria-labelledby={headingId}
        maw="calc(100vw - 16px)"
        mah="min(70vh, 36rem)"
        style={{ overflowY: 'auto' }}
        // it scrolls on a short screen: focusable, so the keyboard can scroll it too
        tabIndex={0}
      >
        <Stack gap="sm">
          <Title order={2} size="h5" id={headingId}>
            Requirement levels
          </Title>
          <MeaningList label="Requirement levels" items={requirementItems} />
          <Text size="xs" c="dimmed">
            {keywordNote} Hover or focus a badge on the page for its full meaning.
          </Text>
          <Title order={3} size="h6">
            Findings
          </Title>
          <MeaningList label="Finding badges" items={findingBadges} />
          {toolBadges.length > 0 && (
            <>
              <Title order={3} size="h6">
                Results on this page
              </Title>
              <MeaningList label="Result badges" items={toolBadges} />
            </>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
