import { Anchor, Code, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import type { SmtpTlsIdentifierCheck, SmtpTlsValidation } from '@rfckit/standards';
import { Link } from 'react-router';

import { DataTable, FieldRow } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { passGreen, StatusBadge, type StatusStyle } from '../../components/status-badge.tsx';

/** Spec part 2 §4: the validation status in the spec's words. */
export const smtpTlsStatusStyles: Record<SmtpTlsValidation['status'], StatusStyle> = {
  success: {
    text: 'Validation Passed',
    colour: passGreen,
    textColour: 'white',
    meaning: 'A client following RFC 7817 accepts the certificate, and nothing needs attention',
  },
  warning: {
    text: 'Passed with Warnings',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'A client following RFC 7817 accepts the certificate, but some clients or setups may not',
  },
  error: {
    text: 'Failed',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'A client following RFC 7817 refuses the certificate',
  },
};

const flagStyles = {
  yes: { text: 'Yes', colour: passGreen, textColour: 'white', meaning: 'The rule holds' },
  no: { text: 'No', colour: 'red.9', textColour: 'white', meaning: 'The rule does not hold' },
  notApplicable: {
    text: 'Not used',
    colour: 'gray.7',
    textColour: 'white',
    meaning: 'The rule does not apply to this certificate or these settings',
  },
} satisfies Record<string, StatusStyle>;

/** Why a flag is true only because its rule does not apply, or null when it was really tested. */
function notApplicableReason(
  result: SmtpTlsValidation,
  key: keyof SmtpTlsValidation['validationSummary'],
): string | null {
  if (key === 'srvIdCompliant' && result.referenceIdentifiers.srvIds.length === 0)
    return 'SRV discovery not used, so no SRV-ID is looked for';
  if (key === 'cnIdCompliant' && result.presented.commonName?.used !== true)
    return result.presented.commonName === null
      ? 'the certificate has no CN'
      : 'the CN is ignored: the certificate has subjectAltName identifiers (RFC 6125 §6.4.4)';
  return null;
}

const flagRows: { key: keyof SmtpTlsValidation['validationSummary']; label: string; rfc: string }[] = [
  { key: 'dnsIdCompliant', label: 'DNS-ID matches the server hostname', rfc: 'RFC 6125 §6.4' },
  {
    key: 'srvIdCompliant',
    label: 'SRV-ID matches the service at the email domain',
    rfc: 'RFC 7817 §3, RFC 4985',
  },
  {
    key: 'cnIdCompliant',
    label: 'CN, when it is the only identifier, names the server',
    rfc: 'RFC 6125 §6.4.4',
  },
  { key: 'rfc7817Compliant', label: 'Accepted by RFC 7817 clients', rfc: 'RFC 7817 §3' },
];

const matchedByWords: Record<NonNullable<SmtpTlsValidation['matchedBy']>, string> = {
  'dns-id': 'a DNS-ID',
  'srv-id': 'an SRV-ID',
  'cn-id': 'the CN (fallback)',
};

export function validationTitle(result: SmtpTlsValidation): string {
  return smtpTlsStatusStyles[result.status].text;
}

interface IdentifierRow extends SmtpTlsIdentifierCheck {
  kind: string;
  note: string | null;
}

function identifierRows(result: SmtpTlsValidation): IdentifierRow[] {
  const { dnsIds, srvIds, commonName } = result.presented;
  return [
    ...dnsIds.map((id) => ({ ...id, kind: 'DNS-ID', note: null })),
    ...srvIds.map((id) => ({ ...id, kind: 'SRV-ID', note: null })),
    ...(commonName === null
      ? []
      : [
          {
            ...commonName,
            kind: 'CN',
            note: commonName.used ? null : 'not used: the certificate has subjectAltName identifiers',
          },
        ]),
  ];
}

/** The answer of the validator: the status, the four flags, what was compared, the findings with RFC and fix. */
export function ValidationView({ result }: { result: SmtpTlsValidation }) {
  const rows = identifierRows(result);
  const { referenceIdentifiers: reference, scope } = result;
  return (
    <Stack gap="md" style={{ overflowWrap: 'anywhere' }}>
      <Group gap="xs">
        <StatusBadge style={smtpTlsStatusStyles[result.status]} label="Status" />
        <Text size="sm">
          {result.matchedBy === null
            ? 'No identifier of the certificate matches.'
            : `Matched by ${matchedByWords[result.matchedBy]}.`}
        </Text>
      </Group>
      <Stack gap="xs" component="section" aria-label="Validation summary">
        <Title order={4}>Validation summary</Title>
        {flagRows.map((flag) => {
          const value = result.validationSummary[flag.key];
          const notApplicable = value ? notApplicableReason(result, flag.key) : null;
          return (
            <Group key={flag.key} gap="xs" wrap="nowrap" align="flex-start">
              <StatusBadge
                style={
                  notApplicable !== null ? flagStyles.notApplicable : value ? flagStyles.yes : flagStyles.no
                }
                label={flag.key}
              />
              <Text size="sm">
                {flag.label}
                {notApplicable !== null && `: ${notApplicable}`}{' '}
                <Text span c="dimmed" size="xs">
                  ({flag.key}, {flag.rfc})
                </Text>
              </Text>
            </Group>
          );
        })}
      </Stack>
      {!scope.coveredByRfc7817 && (
        <Text size="sm">
          Port 25 is relay between mail servers: check it with the{' '}
          <Anchor component={Link} to="/tools/mta-sts" underline="always">
            MTA-STS tool
          </Anchor>{' '}
          or the{' '}
          <Anchor component={Link} to="/tools/dane" underline="always">
            DANE tool
          </Anchor>
          .
        </Text>
      )}
      <DiagnosticList diagnostics={result.issues} variant="section" label="Issues" heading={4} />
      <DiagnosticList diagnostics={result.warnings} variant="section" label="Warnings" heading={4} />
      <Stack gap="xs" component="section" aria-label="Compared identifiers">
        <Title order={4}>Compared identifiers</Title>
        <Table withTableBorder fz="sm" aria-label="Reference identifiers">
          <Table.Tbody>
            <FieldRow label="Reference DNS-ID">
              <Code style={{ overflowWrap: 'anywhere' }}>{reference.dnsId}</Code>
              {reference.dnsIdUnicode !== null && (
                <Text span size="sm">
                  {' '}
                  ({reference.dnsIdUnicode})
                </Text>
              )}
            </FieldRow>
            <FieldRow label="Reference SRV-ID">
              {reference.srvIds.length === 0 ? (
                <Text span size="sm">
                  none: SRV discovery not used
                </Text>
              ) : (
                <Code style={{ overflowWrap: 'anywhere' }}>{reference.srvIds.join(', ')}</Code>
              )}
            </FieldRow>
            <FieldRow label="Service">
              <Text span size="sm">
                {scope.serviceType} on port {scope.port},{' '}
                {scope.tls === 'implicit' ? 'implicit TLS' : 'STARTTLS'}
                {result.live !== null && ` · fetched from ${result.live.host}:${result.live.port}`}
              </Text>
            </FieldRow>
          </Table.Tbody>
        </Table>
        {rows.length > 0 && (
          <DataTable
            label="Identifiers the certificate presents"
            minWidth={520}
            rows={rows}
            rowKey={(row, index) => `${row.kind}-${index}`}
            columns={[
              { header: 'Type', cell: (row) => row.kind },
              {
                header: 'Identifier',
                rowHeader: true,
                cell: (row) => (
                  <Stack gap={0}>
                    <Code style={{ overflowWrap: 'anywhere' }}>{row.presented}</Code>
                    {row.unicode !== null && <Text size="xs">{row.unicode}</Text>}
                  </Stack>
                ),
              },
              {
                header: 'Matches',
                cell: (row) => (
                  <Stack gap={2}>
                    <StatusBadge style={row.matches ? flagStyles.yes : flagStyles.no} label="Matches" />
                    {(row.problem ?? row.note) !== null && <Text size="xs">{row.problem ?? row.note}</Text>}
                  </Stack>
                ),
              },
            ]}
          />
        )}
      </Stack>
      {result.certificate !== null && (
        <Stack gap="xs" component="section" aria-label="Certificate">
          <Title order={4}>Certificate</Title>
          <List size="sm" spacing={2}>
            <List.Item style={{ overflowWrap: 'anywhere' }}>
              Subject: {result.certificate.subject || 'empty'}
            </List.Item>
            <List.Item style={{ overflowWrap: 'anywhere' }}>Issuer: {result.certificate.issuer}</List.Item>
            <List.Item>
              Valid {result.certificate.notBefore?.slice(0, 10) ?? '?'} to{' '}
              {result.certificate.notAfter?.slice(0, 10) ?? '?'}
            </List.Item>
          </List>
        </Stack>
      )}
    </Stack>
  );
}
