import { Code, Stack, Table, Text, Title } from '@mantine/core';
import type { DkimValidationResultData } from '@rfckit/standards';

import { FieldRow } from '../../components/data-table.tsx';
import { TableScroll } from '../../components/table-scroll.tsx';
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
          <TableScroll label="Tags of the record" minWidth={480}>
            <Table withTableBorder fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Tag</Table.Th>
                  <Table.Th scope="col">Meaning</Table.Th>
                  <Table.Th scope="col">Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {Object.entries(result.tags).map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Td>
                      <Code>{name}=</Code>
                    </Table.Td>
                    <Table.Td>{tagMeaning[name] ?? 'Unknown (ignored)'}</Table.Td>
                    <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {value === '' ? '(empty)' : value}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        </Stack>
      )}
      <DiagnosticList variant="list" diagnostics={result.diagnostics} label="Findings" />
    </Stack>
  );
}
