import { Badge, Code, Group, Paper, Stack, Text } from '@mantine/core';
import type { SpfCheckResultData } from '@rfckit/standards';

type TraceStep = SpfCheckResultData['trace'][number];

const outcomeLabels: Record<TraceStep['outcome'], string> = {
  match: 'matched',
  'no-match': 'no match',
  found: 'found',
  result: 'result',
  error: 'error',
  ignored: 'ignored',
};

function Queries({ step }: { step: TraceStep }) {
  if (step.queries.length === 0) return null;
  return (
    <Stack component="ul" gap={2} m={0} mt={4} p={0} style={{ listStyle: 'none' }} aria-label="DNS queries">
      {step.queries.map((query, index) => (
        <Text component="li" size="xs" key={`${query.type}-${query.name}-${index}`} ff="monospace">
          {query.type} {query.name}: {query.status}
          {query.void ? ' (void lookup)' : ''}
          {query.answers.length > 0 ? ` → ${query.answers.join(', ')}` : ''}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * The evaluation as the server ran it, step by step: records found, terms tried (indented by include
 * depth), the DNS questions each asked and the running lookup count.
 */
export function TraceList({ trace }: { trace: readonly TraceStep[] }) {
  return (
    <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Evaluation trace">
      {trace.map((step, index) => (
        <Paper
          component="li"
          key={index}
          withBorder
          p="xs"
          ml={`calc(${step.depth} * var(--mantine-spacing-lg))`}
          data-outcome={step.outcome}
        >
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" color={step.outcome === 'error' ? 'red' : 'gray'} radius="sm" size="sm">
              {outcomeLabels[step.outcome]}
            </Badge>
            {step.result && (
              <Badge variant="outline" radius="sm" size="sm">
                {step.result}
              </Badge>
            )}
            <Text size="sm" fw={600}>
              {step.domain}
            </Text>
            {step.term && <Code>{step.term}</Code>}
            <Text size="xs" c="dimmed">
              lookups {step.lookups}, void {step.voidLookups}
            </Text>
          </Group>
          <Text size="sm" mt={4}>
            {step.message}
          </Text>
          {step.record && (
            <Text size="xs" ff="monospace" mt={2} style={{ wordBreak: 'break-all' }}>
              {step.record}
            </Text>
          )}
          <Queries step={step} />
        </Paper>
      ))}
    </Stack>
  );
}
