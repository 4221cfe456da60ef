import { Badge, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Diagnostic } from '@rfckit/standards';

import { RequirementBadge } from './requirement-badge.tsx';

type Severity = Diagnostic['severity'];

export const severityColour = {
  error: { color: 'red.9', text: 'white' },
  warning: { color: 'orange.6', text: 'black' },
  info: { color: 'blue.8', text: 'white' },
} as const;

/** Badge and group names: most tools say warning; security.txt says recommendation (RFC 9116 wording). */
export const wordings = {
  findings: {
    error: { label: 'Error', title: 'Errors' },
    warning: { label: 'Warning', title: 'Warnings' },
    info: { label: 'Info', title: 'Notes' },
  },
  recommendations: {
    error: { label: 'Error', title: 'Errors' },
    warning: { label: 'Recommendation', title: 'Recommendations' },
    info: { label: 'Note', title: 'Notes' },
  },
} as const;

const severityOrder: readonly Severity[] = ['error', 'warning', 'info'];

/** Errors first, then warnings, then notes; the order within a severity is kept. */
function bySeverity(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return severityOrder.flatMap((severity) => diagnostics.filter((d) => d.severity === severity));
}

type Wording = keyof typeof wordings;

interface ItemContext {
  /** The record the spans point into, to quote the text at each position. */
  record?: string | undefined;
  /** The lines of the validated text, to label and quote the line each finding points at. */
  lines?: readonly string[] | undefined;
  wording: Wording;
}

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

function DiagnosticItem({ diagnostic, record, lines, wording }: ItemContext & { diagnostic: Diagnostic }) {
  const colour = severityColour[diagnostic.severity];
  const lineText = lines && diagnostic.line !== undefined ? lines[diagnostic.line - 1] : undefined;
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      data-severity={diagnostic.severity}
      data-code={diagnostic.code}
      data-line={lines ? diagnostic.line : undefined}
    >
      <Group gap="xs" mb={4}>
        <Badge color={colour.color} c={colour.text} variant="filled" radius="sm" size="sm">
          {wordings[wording][diagnostic.severity].label}
        </Badge>
        {lines && (
          <Badge color="gray" variant="outline" radius="sm" size="sm" tt="none">
            {diagnostic.line === undefined ? 'Whole file' : `Line ${diagnostic.line}`}
          </Badge>
        )}
        {diagnostic.requirement && <RequirementBadge level={diagnostic.requirement} />}
        {diagnostic.rfc && (
          <Text size="xs" c="dimmed">
            {diagnostic.rfc}
          </Text>
        )}
        {lines && (
          <Text size="xs" c="dimmed" ff="monospace">
            {diagnostic.code}
          </Text>
        )}
      </Group>
      <Text size="sm">{diagnostic.message}</Text>
      {diagnostic.span && <Position span={diagnostic.span} record={record} />}
      {lineText !== undefined && lineText.trim() !== '' && (
        <Code block mt={6} className="mono-block" aria-label={`Line ${diagnostic.line}`}>
          {lineText}
        </Code>
      )}
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
}

function Items({
  diagnostics,
  label,
  ...context
}: ItemContext & { diagnostics: Diagnostic[]; label?: string }) {
  return (
    <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {diagnostics.map((diagnostic, index) => (
        <DiagnosticItem key={`${diagnostic.code}-${index}`} diagnostic={diagnostic} {...context} />
      ))}
    </Stack>
  );
}

export interface DiagnosticListProps {
  diagnostics: readonly Diagnostic[];
  /**
   * `grouped`: a titled region per severity (Errors, Warnings, Notes); `list`: one list, errors
   * first, named by `label`; `section`: one list under a `label` heading, as a region of that name.
   */
  variant?: 'grouped' | 'list' | 'section';
  /** The list's or section's accessible name (and the section's heading). */
  label?: string;
  heading?: 3 | 4 | 5;
  /** Whether grouped headings carry their count, e.g. 'Errors (2)'. */
  counted?: boolean;
  wording?: Wording;
  record?: string | undefined;
  lines?: readonly string[] | undefined;
}

/**
 * The one rendering of findings: each with its severity, requirement level, citation, position
 * (a span in the record or a line of the text) and fix. Nothing is rendered for no findings.
 */
export function DiagnosticList({
  diagnostics,
  variant = 'grouped',
  label = 'Findings',
  heading = 3,
  counted = true,
  wording = 'findings',
  record,
  lines,
}: DiagnosticListProps) {
  const context = { record, lines, wording };
  if (diagnostics.length === 0) return null;
  if (variant === 'list') return <Items diagnostics={bySeverity(diagnostics)} label={label} {...context} />;
  if (variant === 'section') {
    return (
      <Stack gap="xs" component="section" aria-label={label}>
        <Title order={heading}>{label}</Title>
        <Items diagnostics={bySeverity(diagnostics)} {...context} />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {severityOrder.map((severity) => {
        const items = diagnostics.filter((d) => d.severity === severity);
        if (items.length === 0) return null;
        const title = wordings[wording][severity].title;
        return (
          <Stack key={severity} gap="xs" component="section" aria-label={title}>
            <Title order={heading} size={counted ? 'h5' : undefined}>
              {counted ? `${title} (${items.length})` : title}
            </Title>
            <Items diagnostics={items} {...context} />
          </Stack>
        );
      })}
    </Stack>
  );
}
