import { Alert, Badge, Group, List, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  daneOperations,
  tlsaMatchingTypes,
  tlsaProtocols,
  tlsaSelectors,
  tlsaUsages,
  type DaneCertificateResult,
  type TlsaFieldValue,
  type TlsaGeneration,
} from '@rfckit/standards';
import { useEffect, useRef } from 'react';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { CopyBlock } from '../../components/copy-block.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { ResultSection } from '../../components/result-section.tsx';
import { certificateFetchAdvice } from '../../lib/failure-message.ts';
import { ChainList } from './chain-list.tsx';

const options = (values: readonly TlsaFieldValue[]) =>
  values.map((entry) => ({ value: String(entry.value), label: `${entry.value} ${entry.acronym}` }));

const starttlsOptions = [
  { value: '', label: 'Automatic (SMTP on 25 and 587)' },
  { value: 'none', label: 'None (TLS from the start)' },
  { value: 'smtp', label: 'SMTP' },
  { value: 'imap', label: 'IMAP' },
  { value: 'pop3', label: 'POP3' },
  { value: 'xmpp', label: 'XMPP' },
  { value: 'ldap', label: 'LDAP' },
  { value: 'ftp', label: 'FTP' },
  { value: 'postgres', label: 'PostgreSQL' },
];

const whole = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));

function FetchForm({ onFetched }: { onFetched: (result: DaneCertificateResult) => void }) {
  const { form, request, onSubmit } = useOperationForm({
    operation: daneOperations.certificate,
    initialValues: { host: '', port: '25', starttls: '' },
    toBody: ({ host, port, starttls }) => ({
      host,
      ...(whole(port) === undefined ? {} : { port: whole(port) }),
      ...(starttls === '' ? {} : { starttls: starttls as 'none' }),
    }),
    errorField: 'host',
    fallbackError: 'Domain is required',
  });
  const fetched = request.data;
  // each fetched chain fills the generator once; edits after it stay
  const applied = useRef<DaneCertificateResult | undefined>(undefined);
  useEffect(() => {
    if (fetched === undefined || applied.current === fetched) return;
    applied.current = fetched;
    onFetched(fetched);
  }, [fetched, onFetched]);
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Fetch a certificate chain from a server"
      resultLabel="Fetched chain"
      submitLabel="Fetch certificate"
      pendingLabel="Fetching..."
      panel={{
        pending: 'Connecting to the server…',
        empty: 'Or fetch the chain the server presents: it fills the certificate field below.',
        couldNotCheckAdvice: certificateFetchAdvice,
        errorMessage: (error) => `Could not fetch the certificate: ${error.message}`,
        success: (data) => ({
          title: `${data.host}:${data.port} presented ${data.certificates.length} certificate${data.certificates.length === 1 ? '' : 's'}`,
          tone: 'positive',
          children: <ChainList certificates={data.certificates} />,
        }),
      }}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <DomainField label="Server" placeholder="mail.example.com" {...form.getInputProps('host')} />
        <TextInput label="Port" inputMode="numeric" autoComplete="off" {...form.getInputProps('port')} />
        <NativeSelect label="STARTTLS" data={starttlsOptions} {...form.getInputProps('starttls')} />
      </SimpleGrid>
    </OperationForm>
  );
}

function GenerationView({ result }: { result: TlsaGeneration }) {
  return (
    <Stack gap="md">
      {result.warning && (
        <Alert color="red" variant="light" title="This record protects no mail">
          <Text size="sm">{result.warning}</Text>
        </Alert>
      )}
      <CopyBlock
        label="Zone file"
        value={result.zoneFile}
        copyAriaLabel="Copy the zone-file lines"
        testId="tlsa-zone-file"
      />
      {result.note && (
        <Text size="sm" c="dimmed">
          {result.note}
        </Text>
      )}
      <ResultSection title="All records">
        <DataTable
          label="Every TLSA record of this chain"
          minWidth={720}
          verticalSpacing="xs"
          rows={result.records}
          rowKey={(row) => `${row.usage}${row.selector}${row.matchingType}`}
          rowProps={(row) => ({ 'data-testid': `tlsa-${row.usage}-${row.selector}-${row.matchingType}` })}
          columns={[
            {
              header: 'Parameters',
              rowHeader: true,
              cell: (row) => (
                <Stack gap={2}>
                  <Text ff="monospace" size="sm" fw={600}>
                    {row.usage} {row.selector} {row.matchingType}
                  </Text>
                  <Text size="xs">{row.parameters}</Text>
                  <Group gap={4}>
                    {row.recommended && (
                      <Badge color="green" variant="light" size="xs">
                        Recommended
                      </Badge>
                    )}
                    {row.selected && !row.recommended && (
                      <Badge variant="light" size="xs">
                        Chosen
                      </Badge>
                    )}
                    {row.unusable && (
                      // the reason wraps in the narrow column rather than being cut off
                      <Badge
                        color="red"
                        variant="light"
                        size="xs"
                        tt="none"
                        h="auto"
                        styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
                      >
                        {row.unusable}
                      </Badge>
                    )}
                  </Group>
                </Stack>
              ),
            },
            {
              header: 'From',
              cell: (row) => (
                <Text size="xs">
                  {row.certificateIndex === 0
                    ? 'Server certificate'
                    : `Certificate ${row.certificateIndex + 1}`}
                </Text>
              ),
            },
            {
              header: 'Data',
              cell: (row) => (
                <Text ff="monospace" size="xs" style={{ overflowWrap: 'anywhere' }} lineClamp={3}>
                  {row.data}
                </Text>
              ),
            },
            {
              header: 'Copy',
              cardLabel: null,
              cell: (row) => (
                <CopyButton
                  value={row.record}
                  label="Copy"
                  ariaLabel={`Copy the ${row.usage} ${row.selector} ${row.matchingType} record`}
                  size="xs"
                />
              ),
            },
          ]}
        />
      </ResultSection>
      <ResultSection title="Certificates">
        <ChainList certificates={result.certificates} />
      </ResultSection>
      <ResultSection title="Rollover">
        <List size="sm" spacing="xs">
          {result.rollover.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      </ResultSection>
    </Stack>
  );
}

export function GeneratorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: daneOperations.generate,
    initialValues: {
      chain: '',
      host: '',
      port: '25',
      protocol: 'tcp',
      usage: '3',
      selector: '1',
      matchingType: '1',
      anchor: '',
    },
    toBody: (values) => ({
      chain: values.chain,
      host: values.host,
      ...(whole(values.port) === undefined ? {} : { port: whole(values.port) }),
      protocol: values.protocol as (typeof tlsaProtocols)[number],
      usage: Number(values.usage),
      selector: Number(values.selector),
      matchingType: Number(values.matchingType),
      ...(whole(values.anchor) === undefined ? {} : { anchor: whole(values.anchor) }),
    }),
    errorField: 'chain',
    fallbackError: 'Certificate chain is required',
  });

  const onFetched = (fetched: DaneCertificateResult) => {
    form.setFieldValue('chain', fetched.pem);
    form.setFieldValue('host', fetched.host);
    form.setFieldValue('port', String(fetched.port));
  };

  return (
    <Stack gap="xl">
      <FetchForm onFetched={onFetched} />
      <OperationForm
        request={request}
        onSubmit={onSubmit}
        formLabel="Generate TLSA records"
        resultLabel="Generated TLSA records"
        submitLabel="Generate"
        pendingLabel="Generating..."
        panel={{
          pending: 'Computing the records…',
          empty: 'Paste or fetch a certificate chain, name the service, and choose Generate.',
          success: (data) => ({
            title: `TLSA records for ${data.owner}`,
            tone: 'positive',
            children: <GenerationView result={data} />,
          }),
        }}
      >
        <CodeTextarea
          label="Certificate chain"
          description="PEM certificates, the server certificate first, then its CA certificates. Never paste a private key."
          placeholder="-----BEGIN CERTIFICATE-----"
          minRows={4}
          maxRows={12}
          {...form.getInputProps('chain')}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <DomainField
            label="Host"
            description="The server name clients connect to"
            placeholder="mail.example.com"
            {...form.getInputProps('host')}
          />
          <TextInput
            label="Port"
            description="25 for SMTP, 443 for HTTPS"
            inputMode="numeric"
            autoComplete="off"
            {...form.getInputProps('port')}
          />
          <NativeSelect
            label="Protocol"
            description="Owner name label"
            data={[...tlsaProtocols]}
            {...form.getInputProps('protocol')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          <NativeSelect label="Usage" data={options(tlsaUsages)} {...form.getInputProps('usage')} />
          <NativeSelect label="Selector" data={options(tlsaSelectors)} {...form.getInputProps('selector')} />
          <NativeSelect
            label="Matching type"
            data={options(tlsaMatchingTypes)}
            {...form.getInputProps('matchingType')}
          />
          <TextInput
            label="CA for usages 0 and 2"
            description="Chain position: 1 = the server certificate’s issuer"
            placeholder="1"
            inputMode="numeric"
            autoComplete="off"
            {...form.getInputProps('anchor')}
          />
        </SimpleGrid>
      </OperationForm>
    </Stack>
  );
}
