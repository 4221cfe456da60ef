import { Alert, Button, Code, List, Stack, Text } from '@mantine/core';
import { useId } from 'react';

import type { CouldNotCheck } from '../lib/failure-message.ts';

interface CouldNotCheckProps extends CouldNotCheck {
  /** Sends the same request again; no button without it, nor where `retry` says it cannot help. */
  onRetry?: (() => void) | undefined;
}

/**
 * "We could not check": our resolver, our network or the site failed, so there is no verdict on the
 * user's configuration. Neutral (never the red of a finding), with what was tried, what the user
 * can do (wait and retry, or check the host and port they gave) and a retry where one may help
 * (docs/architecture.md §6).
 */
export function CouldNotCheckNotice({ title, message, advice, retry, tried, onRetry }: CouldNotCheckProps) {
  const triedLabel = useId();
  return (
    <Alert color="gray" variant="light" title={`We could not check: ${title}`} data-could-not-check>
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        <Text size="sm" c="dimmed">
          {advice}
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
        {retry && onRetry && (
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
