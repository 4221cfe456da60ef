import { Code, Stack, Table, Text, Title } from '@mantine/core';
import type { DkimValidationResultData } from '@rfckit/standards';
import type { ReactNode } from 'react';

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

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w={{ base: 120, sm: 200 }} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

/** What the validator found: the key summary, the tags as written and every finding. */
export function ValidationResultView({ result }: { result: DkimValidationResultData }) {
  const parsed = result.parsed;
  return (
    <Stack gap="md">
      {parsed && (
        <Table withTableBorder fz="sm" aria-label="Key record summary">
          <Table.Tbody>
            <Row label="Status">{parsed.status}</Row>
            <Row label="Key type">
              <Text span ff="monospace" size="sm">
                {parsed.keyType}
              </Text>
              {result.tags.k === undefined ? ' (default)' : ''}
            </Row>
            <Row label="Key size">{parsed.keySize === null ? 'unknown' : `${parsed.keySize} bits`}</Row>
            <Row label="Hash algorithms">
              {parsed.hashAlgorithms === null ? 'any (no h= tag)' : parsed.hashAlgorithms.join(', ')}
            </Row>
            <Row label="Service types">{parsed.serviceTypes.join(', ')}</Row>
            <Row label="Flags">{parsed.flags.length > 0 ? parsed.flags.join(', ') : 'none'}</Row>
            {parsed.strings > 1 && <Row label="Strings joined">{parsed.strings}</Row>}
            {parsed.ownerName && <Row label="Owner name">{parsed.ownerName}</Row>}
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
