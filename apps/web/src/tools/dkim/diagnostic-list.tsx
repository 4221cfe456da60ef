import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { Diagnostic } from '@rfckit/standards';

import { RequirementBadge } from '../../components/requirement-badge.tsx';

const severityOrder = { error: 0, warning: 1, info: 2 } as const;
const severityStyle = {
  error: { label: 'Error', color: 'red.9', text: 'white' },
  warning: { label: 'Warning', color: 'orange.6', text: 'black' },
  info: { label: 'Info', color: 'blue.8', text: 'white' },
} as const;

/** Findings, errors first, each with its requirement level, citation and fix. */
export function DiagnosticList({
  diagnostics,
  label,
}: {
  diagnostics: readonly Diagnostic[];
  label: string;
}) {
  const sorted = [...diagnostics].sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity]);
  if (sorted.length === 0) return null;
  return (
    <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {sorted.map((diagnostic, index) => {
        const severity = severityStyle[diagnostic.severity];
        return (
          <Paper
            component="li"
            withBorder
            p="sm"
            key={`${diagnostic.code}-${index}`}
            data-severity={diagnostic.severity}
            data-code={diagnostic.code}
          >
            <Group gap="xs" mb={4}>
              <Badge color={severity.color} c={severity.text} variant="filled" radius="sm" size="sm">
                {severity.label}
              </Badge>
              {diagnostic.requirement && <RequirementBadge level={diagnostic.requirement} />}
              {diagnostic.rfc && (
                <Text size="xs" c="dimmed">
                  {diagnostic.rfc}
                </Text>
              )}
            </Group>
            <Text size="sm">{diagnostic.message}</Text>
            {diagnostic.fix && (
              <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
                <Text span fw={600}>
                  Fix:
                </Text>{' '}
                {diagnostic.fix}
              </Text>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
