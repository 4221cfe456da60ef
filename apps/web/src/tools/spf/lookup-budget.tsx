import { Progress, Stack, Text } from '@mantine/core';
import { SPF_LOOKUP_LIMIT } from '@rfckit/standards';
import { useId } from 'react';

/** Green to 7, orange at 8-10 (little room for one more include), red over the limit. */
function level(lookups: number): { colour: string; word: string } {
  if (lookups > SPF_LOOKUP_LIMIT)
    return { colour: 'red.9', word: 'over the limit: receivers return permerror' };
  if (lookups >= 8) return { colour: 'orange.7', word: 'close to the limit' };
  return { colour: 'green.8', word: 'within the limit' };
}

/** The RFC 7208 §4.6.4 budget of 10 DNS lookups as a bar, and the same in words. */
export function LookupBudget({ lookups, label, note }: { lookups: number; label: string; note?: string }) {
  const { colour, word } = level(lookups);
  const textId = useId();
  return (
    <Stack gap={4} data-testid="lookup-budget">
      <Text size="sm" fw={600} id={textId}>
        {label}: {lookups} of {SPF_LOOKUP_LIMIT}, {word}
      </Text>
      <Progress.Root size="lg">
        <Progress.Section
          value={Math.min(100, (lookups / SPF_LOOKUP_LIMIT) * 100)}
          color={colour}
          aria-labelledby={textId}
          aria-valuetext={`${lookups} of ${SPF_LOOKUP_LIMIT}`}
        />
      </Progress.Root>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Stack>
  );
}
