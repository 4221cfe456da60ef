import { Code, Stack, Table, Text, Title } from '@mantine/core';
import type { DkimValidationResultData } from '@rfckit/standards';

import { DataTable, FieldRow } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';

const tagMeaning: Record<string, string> = {
  v: 'Version',
  h: 'Acceptable hash algorithms',
  k: 'Key type',
  n: 'Notes',
  p: 'Public key',
  s: 'Service types',
  t: 'Flags',
  g: 'Granularity (historic, ignored)',
};

/** What the validator found: the key summary, the tags as written and every finding. */
export function ValidationResultView({ result }: { result: DkimValidationResultData }) {
  const parsed = result.parsed;
  return (
    <Stack gap="md">
      {parsed && (
        <Table withTableBorder fz="sm" aria-label="Key record summary">
          <Table.Tbody>
            <FieldRow label="Status">{parsed.status}</FieldRow>
            <FieldRow label="Key type">
              <Text span ff="monospace" size="sm">
                {parsed.keyType}
              </Text>
              {result.tags.k === undefined ? ' (default)' : ''}
            </FieldRow>
            <FieldRow label="Key size">
              {parsed.keySize === null ? 'unknown' : `${parsed.keySize} bits`}
            </FieldRow>
            <FieldRow label="Hash algorithms">
              {parsed.hashAlgorithms === null ? 'any (no h= tag)' : parsed.hashAlgorithms.join(', ')}
            </FieldRow>
            <FieldRow label="Service types">{parsed.serviceTypes.join(', ')}</FieldRow>
            <FieldRow label="Flags">{parsed.flags.length > 0 ? parsed.flags.join(', ') : 'none'}</FieldRow>
            {parsed.strings > 1 && <FieldRow label="Strings joined">{parsed.strings}</FieldRow>}
            {parsed.ownerName && <FieldRow label="Owner name">{parsed.ownerName}</FieldRow>}
          </Table.Tbody>
        </Table>
      )}
      {Object.keys(result.tags).length > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h5">
            Tags
          </Title>
          <DataTable
            label="Tags of the record"
            minWidth={480}
            fz="sm"
            rows={Object.entries(result.tags)}
            rowKey={([name]) => name}
            columns={[
              { header: 'Tag', cell: ([name]) => <Code>{name}=</Code> },
              { header: 'Meaning', cell: ([name]) => tagMeaning[name] ?? 'Unknown (ignored)' },
              {
                header: 'Value',
                cell: ([, value]) => (value === '' ? '(empty)' : value),
                cellProps: { ff: 'monospace', style: { overflowWrap: 'anywhere' } },
              },
            ]}
          />
        </Stack>
      )}
      <DiagnosticList variant="list" diagnostics={result.diagnostics} label="Findings" />
    </Stack>
  );
}
