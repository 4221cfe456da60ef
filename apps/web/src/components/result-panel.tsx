import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';

import type { CouldNotCheck } from '../lib/failure-message.ts';
import { CouldNotCheckNotice } from './could-not-check.tsx';

export type ResultPanelState =
  | { status: 'empty'; prompt: string }
  | { status: 'success'; title: string; tone?: 'positive' | 'negative' | undefined; children: ReactNode }
  | { status: 'error'; message: string }
  | ({ status: 'unchecked'; onRetry?: (() => void) | undefined } & CouldNotCheck);

interface ResultPanelProps {
  state: ResultPanelState;
  /** Accessible name of the region, e.g. 'Validation result'. */
  label?: string;
  /** Set to the answer's heading (or, for an error, the region) so a form can move focus to it. */
  focusRef?: RefObject<HTMLElement | null>;
}

const toneColour = {
  positive: 'var(--mantine-color-green-filled)',
  negative: 'var(--mantine-color-red-filled)',
} as const;

/**
 * The spec's result panel: an empty prompt, a success result, an error, or "we could not check"
 * (our side failed: neutral, with a retry). Changes are announced politely.
 */
export function ResultPanel({ state, label = 'Result', focusRef }: ResultPanelProps) {
  const answered = state.status === 'success';
  const focusable = focusRef !== undefined;
  return (
    <section
      aria-label={label}
      aria-live="polite"
      data-state={state.status}
      ref={answered ? undefined : focusRef}
      tabIndex={focusable && !answered ? -1 : undefined}
    >
      {state.status === 'empty' && (
        <Paper withBorder p="lg" style={{ borderStyle: 'dashed' }}>
          <Text c="dimmed" ta="center">
            {state.prompt}
          </Text>
        </Paper>
      )}
      {state.status === 'success' && (
        <Paper
          withBorder
          p="lg"
          style={state.tone ? { borderInlineStart: `4px solid ${toneColour[state.tone]}` } : undefined}
        >
          <Stack gap="md">
            {/* a suite name or host has no spaces to break at on a phone */}
            <Title
              order={3}
              size="h4"
              style={{ overflowWrap: 'anywhere' }}
              ref={focusRef as RefObject<HTMLHeadingElement | null> | undefined}
              tabIndex={focusable ? -1 : undefined}
            >
              {state.title}
            </Title>
            {state.children}
          </Stack>
        </Paper>
      )}
      {state.status === 'unchecked' && (
        <CouldNotCheckNotice
          title={state.title}
          message={state.message}
          advice={state.advice}
          retry={state.retry}
          tried={state.tried}
          onRetry={state.onRetry}
        />
      )}
      {state.status === 'error' && (
        <Alert color="red" variant="light" title="Error">
          <Text size="sm">{state.message}</Text>
        </Alert>
      )}
    </section>
  );
}
