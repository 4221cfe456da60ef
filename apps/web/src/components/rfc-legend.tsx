import { Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useId } from 'react';

import { RequirementBadge } from './requirement-badge.tsx';
import { keywordNote, requirementLevels, requirementStyles } from './requirement-levels.ts';

/** The RFC compliance legend shown on every tool page. */
export function RfcLegend() {
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Title order={2} size="h5" id={headingId} mb="xs">
        RFC compliance legend
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs" verticalSpacing="xs" component="dl" m={0}>
        {requirementLevels.map((level) => (
          <Group key={level} gap="xs" wrap="nowrap" align="flex-start">
            <dt style={{ flexShrink: 0 }}>
              <RequirementBadge level={level} size="sm" />
            </dt>
            <Text component="dd" size="sm" m={0}>
              {requirementStyles[level].short}
            </Text>
          </Group>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="xs">
        {keywordNote} WILL, HAVE and COULD are rfckit guidance. Hover or focus a badge for its full meaning.
      </Text>
    </Paper>
  );
}
