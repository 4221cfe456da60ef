import { Alert, Button, Code, List, Stack, Text } from '@mantine/core';
import { useId } from 'react';

import type { CouldNotCheck } from '../lib/failure-message.ts';

interface CouldNotCheckProps extends CouldNotCheck {
  /** Sends the same request again; no button without it. */
  onRetry?: (() => void) | undefined;
}

/**
 * "We could not check": our resolver, our network or the site failed, so there is no verdict on the
 * user's configuration. Neutral (never the red of a finding), with what was tried and a retry, and
 * no fix: there is nothing for the user to change (docs/architecture.md §6).
 */
export function CouldNotCheckNotice({ title, message, tried, onRetry }: CouldNotCheckProps) {
  const triedLabel = useId();
  return (
    <Alert color="gray" variant="light" title={`We could not check: ${title}`} data-could-not-check>
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        <Text size="sm" c="dimmed">
          This says nothing about your configuration. Try again in a moment.
        </Text>
        {tried.length > 0 && (
          <div>
            <Text size="sm" fw={600} id={triedLabel}>
              What we tried
            </Text>
            <List size="sm" spacing={4} aria-labelledby={triedLabel}>
              {tried.map(({ target, outcome }) => (
                <List.Item key={target} style={{ overflowWrap: 'anywhere' }}>
                  <Code>{target}</Code>: {outcome}
                </List.Item>
              ))}
            </List>
          </div>
        )}
        {onRetry && (
          <div>
            <Button variant="default" size="xs" onClick={onRetry}>
              Retry
            </Button>
          </div>
        )}
      </Stack>
    </Alert>
  );
}
