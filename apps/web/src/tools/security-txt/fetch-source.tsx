import { Badge, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import type { SecurityTxtFetchResultData, SecurityTxtFetchSource } from '@rfckit/standards';

import { DataTable, FieldRow } from '../../components/data-table.tsx';

type Certificate = NonNullable<SecurityTxtFetchSource['certificate']>;

/** `2027-01-31T12:00:00.000Z` as `2027-01-31 12:00 UTC`. */
export function formatInstant(iso: string): string {
  return iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
}

/** Node prints a distinguished name one attribute a line, root first: show the CN, else all of it. */
export function distinguishedName(name: string): string {
  const parts = name.split('\n').filter((part) => part !== '');
  const common = parts.find((part) => part.startsWith('CN='));
  return common === undefined ? parts.join(', ') : common.slice(3);
}

function CertificateFact({ certificate }: { certificate: Certificate | null }) {
  if (certificate === null) return <Text size="sm">None: the file came over plain http</Text>;
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Badge
          // Mantine's darkest green keeps white text under 4.5:1; this tone of it does not
          color={certificate.verified ? '#1a682c' : 'red.9'}
          c="white"
          variant="filled"
          radius="sm"
          size="sm"
        >
          {certificate.verified ? 'Valid' : 'Not valid'}
        </Badge>
        {certificate.message && <Text size="sm">{certificate.message}</Text>}
      </Group>
      <Text size="sm">
        {certificate.host}: issued by {distinguishedName(certificate.issuer)}, valid{' '}
        {formatInstant(certificate.validFrom)} to {formatInstant(certificate.validTo)}
      </Text>
    </Stack>
  );
}

/** Where the fetched file came from: the facts behind the HTTP checks of RFC 9116 §3. */
export function FetchSourceView({ source }: { source: SecurityTxtFetchSource }) {
  return (
    <Stack gap="xs" component="section" aria-label="Where the file came from">
      <Title order={4}>Where the file came from</Title>
      <Table withTableBorder verticalSpacing={4} data-testid="security-txt-source">
        <Table.Caption>The response the findings are about</Table.Caption>
        <Table.Tbody>
          <FieldRow labelWidth={150} label="URL">
            <Text size="sm" ff="monospace">
              {source.finalUrl}
            </Text>
          </FieldRow>
          <FieldRow labelWidth={150} label="Redirects">
            {source.redirects.length === 0 ? (
              <Text size="sm">None</Text>
            ) : (
              <List type="ordered" size="sm" spacing={2}>
                {source.redirects.map((hop) => (
                  <List.Item key={`${hop.url}-${hop.status}`}>
                    <Text span size="sm" ff="monospace">
                      {hop.url}
                    </Text>{' '}
                    answered {hop.status}, to{' '}
                    <Text span size="sm" ff="monospace">
                      {hop.location}
                    </Text>
                  </List.Item>
                ))}
              </List>
            )}
          </FieldRow>
          <FieldRow labelWidth={150} label="Status">
            <Text size="sm">{source.status}</Text>
          </FieldRow>
          <FieldRow labelWidth={150} label="Content-Type">
            <Text size="sm" {...(source.contentType === null ? {} : { ff: 'monospace' })}>
              {source.contentType ?? 'None sent'}
            </Text>
          </FieldRow>
          <FieldRow labelWidth={150} label="Certificate">
            <CertificateFact certificate={source.certificate} />
          </FieldRow>
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** Each location asked, in order, and what it answered: shown when the file was not at the first. */
export function AttemptsView({ attempts }: { attempts: SecurityTxtFetchResultData['attempts'] }) {
  return (
    <Stack gap="xs" component="section" aria-label="Locations tried">
      <Title order={4}>Locations tried</Title>
      <DataTable
        label="Locations tried, in order"
        minWidth={420}
        caption="RFC 9116 §3 locations, in the order they were asked"
        verticalSpacing={4}
        style={{ overflowWrap: 'anywhere' }}
        rows={attempts}
        rowKey={(attempt) => attempt.url}
        columns={[
          { header: 'URL', cell: (attempt) => attempt.url, cellProps: { ff: 'monospace' } },
          { header: 'Outcome', cell: (attempt) => attempt.error ?? `Found (${attempt.status ?? ''})` },
        ]}
      />
    </Stack>
  );
}
