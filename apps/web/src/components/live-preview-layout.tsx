import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

import { ResultPanel, type ResultPanelState } from './result-panel.tsx';

interface LivePreviewLayoutProps {
  /** The generator's settings form. */
  form: ReactNode;
  /** What the settings give, recomputed on every change. */
  state: ResultPanelState;
  /** The preview region's accessible name, e.g. 'Generated record'. */
  resultLabel: string;
  /** A short piece of advice under the preview. */
  advice: ReactNode;
}

/**
 * A browser generator's page: the settings beside a live preview that stays in view while they
 * scroll (side by side from the large breakpoint, stacked below it), with advice under the preview.
 */
export function LivePreviewLayout({ form, state, resultLabel, advice }: LivePreviewLayoutProps) {
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xl">
      {form}
      {/* minWidth 0: a long record or URL wraps instead of widening the grid column */}
      <Stack
        gap="sm"
        style={{ alignSelf: 'start', position: 'sticky', top: 'var(--mantine-spacing-md)', minWidth: 0 }}
      >
        <Title order={2} size="h4">
          Live preview
        </Title>
        <ResultPanel state={state} label={resultLabel} />
        <Paper withBorder p="sm">
          <Text size="sm">{advice}</Text>
        </Paper>
      </Stack>
    </SimpleGrid>
  );
}
