import { Badge, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Diagnostic } from '@rfckit/standards';

import { RequirementBadge } from './requirement-badge.tsx';

const severityStyle = {
  error: { label: 'Error', color: 'red.9', text: 'white' },
  warning: { label: 'Warning', color: 'orange.6', text: 'black' },
  info: { label: 'Info', color: 'blue.8', text: 'white' },
} as const;

const groups = [
  { severity: 'error', title: 'Errors' },
  { severity: 'warning', title: 'Warnings' },
  { severity: 'info', title: 'Notes' },
] as const;

/** Where in the record a finding points: characters counted from 1, and the text there. */
function Position({ span, record }: { span: NonNullable<Diagnostic['span']>; record?: string | undefined }) {
  const excerpt = record?.slice(span.start, span.end);
  return (
    <Text size="xs" c="dimmed" data-testid="diagnostic-position">
      {span.end > span.start + 1 ? `Characters ${span.start + 1}–${span.end}` : `Character ${span.start + 1}`}
      {excerpt ? (
        <>
          : <Code>{excerpt}</Code>
        </>
      ) : null}
    </Text>
  );
}

function DiagnosticItem({ diagnostic, record }: { diagnostic: Diagnostic; record?: string | undefined }) {
  const severity = severityStyle[diagnostic.severity];
  return (
    <Paper component="li" withBorder p="sm" data-severity={diagnostic.severity} data-code={diagnostic.code}>
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
      {diagnostic.span && <Position span={diagnostic.span} record={record} />}
      {diagnostic.fix && (
        <Text size="sm" mt={4}>
          <Text span fw={600}>
            Fix:
          </Text>{' '}
          {diagnostic.fix}
        </Text>
      )}
    </Paper>
  );
}

/**
 * Findings grouped as errors, warnings and notes, each with its severity, requirement level,
 * citation and position in the record.
 */
export function DiagnosticList({
  diagnostics,
  record,
  heading = 3,
}: {
  diagnostics: readonly Diagnostic[];
  /** The record the spans point into, to quote the text at each position. */
  record?: string | undefined;
  heading?: 3 | 4 | 5;
}) {
  return (
    <Stack gap="md">
      {groups.map(({ severity, title }) => {
        const items = diagnostics.filter((d) => d.severity === severity);
        if (items.length === 0) return null;
        return (
          <Stack key={severity} gap="xs" component="section" aria-label={title}>
            <Title order={heading} size="h5">
              {title} ({items.length})
            </Title>
            <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
              {items.map((diagnostic, index) => (
                <DiagnosticItem key={`${diagnostic.code}-${index}`} diagnostic={diagnostic} record={record} />
              ))}
            </Stack>
          </Stack>
        );
      })}
    </Stack>
  );
}
