import { Badge, Group, List, Stack, Text, Title } from '@mantine/core';
import type { CipherValidation } from '@rfckit/standards';
import type { ReactNode } from 'react';

import { DataTable } from '../../components/data-table.tsx';
import { LevelBadge, weakOrange } from './level-badge.tsx';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

const severityWords = { 0: 'info', 1: 'weak', 2: 'insecure' } as const;
const severityColours = { 0: 'gray.7', 1: weakOrange, 2: 'red.9' } as const;

/** Everything the database knows of one suite, its level, and what to do about it. */
export function SuiteDetails({ result }: { result: CipherValidation }) {
  const { suite } = result;
  const rows: { label: string; value: ReactNode }[] = [
    { label: 'Security level', value: <LevelBadge level={result.level} /> },
    { label: 'TLS versions', value: result.tlsVersion },
  ];
  if (!suite && result.code !== null) rows.push({ label: 'Code point', value: <code>{result.code}</code> });
  if (suite) {
    rows.push(
      { label: 'Code point', value: <code>{suite.hex}</code> },
      { label: 'IANA name', value: <code>{suite.iana}</code> },
      { label: 'OpenSSL name', value: suite.openssl ? <code>{suite.openssl}</code> : 'none' },
      { label: 'GnuTLS name', value: suite.gnutls ? <code>{suite.gnutls}</code> : 'none' },
      {
        label: 'Key exchange',
        value: suite.keyExchange === '-' ? 'Negotiated separately (TLS 1.3)' : suite.keyExchange,
      },
      {
        label: 'Authentication',
        value: suite.authentication === '-' ? 'From the certificate (TLS 1.3)' : suite.authentication,
      },
      { label: 'Cipher', value: `${suite.cipher} (${suite.keyBits}-bit key)` },
      { label: 'MAC', value: suite.aead ? 'AEAD' : suite.mac },
      { label: 'AEAD', value: yesNo(suite.aead) },
      { label: 'Forward secrecy', value: yesNo(suite.pfs) },
      { label: 'IANA recommended', value: yesNo(suite.ianaRecommended) },
      { label: 'Mozilla profiles', value: suite.mozilla.length > 0 ? suite.mozilla.join(', ') : 'none' },
      { label: 'Defined in', value: suite.reference },
    );
  }

  return (
    <Stack gap="md">
      {result.description !== null && <Text size="sm">{result.description}</Text>}
      <DataTable
        label="Suite properties"
        minWidth={360}
        rows={rows}
        rowKey={(row) => row.label}
        rowProps={(row) => ({ 'aria-label': row.label })}
        columns={[
          { header: 'Property', cell: (row) => row.label, rowHeader: true, cardLabel: null },
          { header: 'Value', cell: (row) => row.value, cardLabel: null },
        ]}
      />
      <Stack gap="xs" component="section" aria-label="Recommendations">
        <Title order={4}>Recommendations</Title>
        <List size="sm" spacing={4}>
          {/* the weaknesses' advice is listed with each weakness below */}
          {result.recommendations
            .filter((text) => !result.advice.some((item) => item.advice === text))
            .map((text) => (
              <List.Item key={text}>{text}</List.Item>
            ))}
        </List>
      </Stack>
      {result.advice.length > 0 && (
        <Stack gap="xs" component="section" aria-label="Weaknesses">
          <Title order={4}>Weaknesses</Title>
          <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
            {result.advice.map((item) => (
              <li key={item.weakness}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge
                    variant="filled"
                    radius="sm"
                    color={severityColours[item.severity]}
                    c="white"
                    miw={72}
                  >
                    {severityWords[item.severity]}
                  </Badge>
                  <div>
                    <Text size="sm" fw={600}>
                      {item.weakness}
                    </Text>
                    <Text size="sm">{item.advice}</Text>
                    <Text size="xs" c="dimmed">
                      {item.reference}
                    </Text>
                  </div>
                </Group>
              </li>
            ))}
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}
