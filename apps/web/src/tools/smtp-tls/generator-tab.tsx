import { Code, Group, List, Stack, Text, Title } from '@mantine/core';
import { smtpTlsOperations, type SmtpTlsGeneration } from '@rfckit/standards';

import { CopyBlock } from '../../components/copy-block.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { FlagField, initialMailSettings, MailSettingsFields, mailSettingsBody } from './settings-fields.tsx';

/** Spec part 2 §8: the generator's failure text. */
export const generateFailure = (error: Error) =>
  `Failed to generate TLS policy: ${failureMessage(error, 'API request failed')}`;

function GenerationView({ result }: { result: SmtpTlsGeneration }) {
  const zoneLines = result.dnsRecords.flatMap((record) =>
    record.zoneLine === null ? [] : [record.zoneLine],
  );
  return (
    <Stack gap="md">
      <Stack gap="xs" component="section" aria-label="Certificate names">
        <Title order={4}>Certificate names</Title>
        <List size="sm" spacing={2}>
          {result.certificate.dnsIds.map((name) => (
            <List.Item key={name}>
              DNS-ID <Code>{name}</Code>
            </List.Item>
          ))}
          {result.certificate.srvIds.map((name) => (
            <List.Item key={name}>
              SRV-ID <Code>{name}</Code> (otherName SRVName, RFC 4985)
            </List.Item>
          ))}
        </List>
        <Text size="sm">
          Clients send SNI: {result.sni === null ? 'no' : <Code>{result.sni}</Code>}. TLS starts{' '}
          {result.tls === 'implicit' ? 'at once (implicit TLS)' : 'with STARTTLS'} on port {result.port}.
        </Text>
      </Stack>
      <CopyBlock
        label="OpenSSL request configuration"
        value={result.certificate.opensslConfig}
        copyAriaLabel="Copy the OpenSSL configuration"
      />
      <CopyBlock
        label="Make the key and request"
        value={result.certificate.opensslCommand}
        copyAriaLabel="Copy the OpenSSL command"
      />
      <Stack gap="xs" component="section" aria-label="DNS records">
        <Title order={4}>DNS records</Title>
        <DataTable
          label="DNS records the service needs"
          minWidth={560}
          rows={result.dnsRecords}
          rowKey={(record) => `${record.type}-${record.name}`}
          columns={[
            { header: 'Type', cell: (record) => record.type },
            {
              header: 'Name',
              rowHeader: true,
              cell: (record) => <Code style={{ overflowWrap: 'anywhere' }}>{record.name}</Code>,
            },
            {
              header: 'Purpose',
              cell: (record) => (
                <Stack gap={2}>
                  <Text size="sm">{record.purpose}</Text>
                  <Text size="xs" c="dimmed">
                    {record.rfc}
                  </Text>
                </Stack>
              ),
            },
          ]}
        />
        {zoneLines.length > 0 && (
          <CopyBlock
            label="Zone-file lines"
            value={zoneLines.join('\n')}
            copyAriaLabel="Copy the zone-file lines"
          />
        )}
      </Stack>
      <DiagnosticList diagnostics={result.notes} variant="section" label="Notes" heading={4} />
    </Stack>
  );
}

/** The certificate names and DNS records a mail service needs for RFC 7817 clients (spec part 2 §3). */
export function GeneratorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: smtpTlsOperations.generate,
    initialValues: { ...initialMailSettings, enableSNI: 'yes', enableWildcard: '', includeSRV: 'yes' },
    toBody: (values) => ({
      ...mailSettingsBody(values),
      enableSNI: values.enableSNI === 'yes',
      enableWildcard: values.enableWildcard === 'yes',
      includeSRV: values.includeSRV === 'yes',
    }),
    errorField: 'serverHostname',
    fallbackError: 'Server hostname is required',
  });
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Generate the certificate names and DNS records"
      resultLabel="Generated policy"
      submitLabel="Generate"
      pendingLabel="Generating..."
      panel={{
        pending: 'Generating…',
        empty: 'Enter the server hostname and email domain to see the names and records the service needs.',
        errorMessage: generateFailure,
        success: (data) => ({
          title: data.message,
          tone: data.status === 'success' ? 'positive' : undefined,
          children: <GenerationView result={data} />,
        }),
      }}
    >
      <MailSettingsFields form={form} />
      <Group gap="lg">
        <FlagField form={form} field="enableSNI" label="Clients send SNI" />
        <FlagField form={form} field="enableWildcard" label="Add a wildcard name" />
        <FlagField form={form} field="includeSRV" label="Publish SRV records (RFC 6186)" />
      </Group>
    </OperationForm>
  );
}
