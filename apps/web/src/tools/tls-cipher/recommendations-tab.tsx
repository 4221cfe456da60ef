import { List, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  tlsCipherOperations,
  tlsConfigServerNames,
  tlsConfigServers,
  type TlsServerConfig,
} from '@rfckit/standards';

import { CopyBlock } from '../../components/copy-block.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';

/** Spec part 2 §8: the recommendations loader's failure text. */
export const recommendationsFailure = (error: Error) => `Failed to load recommendations: ${error.message}`;

const profileOptions = [
  { value: 'modern', label: 'Modern: TLS 1.3 only' },
  { value: 'intermediate', label: 'Intermediate: TLS 1.2 and 1.3 (recommended)' },
  { value: 'old', label: 'Old: TLS 1.0 to 1.3, for very old clients' },
];

const serverOptions = tlsConfigServers.map((server) => ({
  value: server,
  label: tlsConfigServerNames[server],
}));

function ConfigView({ config }: { config: TlsServerConfig }) {
  const rows = [
    { label: 'Protocols', value: config.protocols.join(', ') },
    {
      label: 'TLS 1.2 suites',
      value: config.ciphers.length > 0 ? config.ciphers.join(', ') : 'none (TLS 1.3 only)',
    },
    { label: 'TLS 1.3 suites', value: config.ciphersuites.join(', ') },
    { label: 'Groups', value: config.curves.join(', ') },
    { label: 'DH parameters', value: config.dhParams },
    { label: 'HSTS', value: config.hsts ?? 'Not used for this protocol' },
    { label: 'OCSP stapling', value: config.ocspStapling },
    { label: 'Cipher order', value: config.serverPreferredOrder ? 'Server’s order' : 'Client’s order' },
    { label: 'Oldest clients', value: config.oldestClients.join(', ') },
  ];
  return (
    <Stack gap="md">
      <CopyBlock
        label={`${config.serverName}: ${config.fileName}`}
        value={config.config}
        copyAriaLabel={`Copy the ${config.serverName} configuration`}
        testId="tls-config"
      />
      {config.notes.length > 0 && (
        <Stack gap="xs" component="section" aria-label="Notes">
          <Title order={4}>Notes</Title>
          <List size="sm" spacing={4}>
            {config.notes.map((note) => (
              <List.Item key={note}>{note}</List.Item>
            ))}
          </List>
        </Stack>
      )}
      <DataTable
        label="What the configuration sets"
        minWidth={480}
        rows={rows}
        rowKey={(row) => row.label}
        columns={[
          { header: 'Setting', cell: (row) => row.label, rowHeader: true, cardLabel: null },
          {
            header: 'Value',
            cell: (row) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {row.value}
              </Text>
            ),
            cardLabel: null,
          },
        ]}
      />
      <Text size="xs" c="dimmed">
        From Mozilla’s Server Side TLS guidelines {config.guidelinesVersion}. Replace the /path/to/
        placeholders with your files.
      </Text>
    </Stack>
  );
}

export function RecommendationsTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: tlsCipherOperations.recommendations,
    initialValues: { profile: 'intermediate', server: 'nginx' },
    errorField: 'profile',
    fallbackError: 'Choose a profile and a server',
  });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Load a recommended TLS configuration"
      resultLabel="Recommended configuration"
      submitLabel="Load Recommendations"
      pendingLabel="Loading..."
      hint="Generated from Mozilla’s profiles for the server you run."
      panel={{
        pending: 'Writing the configuration…',
        empty: 'Choose a profile and a server, then Load Recommendations to get a configuration to paste.',
        errorMessage: recommendationsFailure,
        success: (data) => ({
          title: `${data.serverName}, Mozilla ${data.profile} profile`,
          tone: 'positive',
          children: <ConfigView config={data} />,
        }),
      }}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <NativeSelect label="Profile" data={profileOptions} {...form.getInputProps('profile')} />
        <NativeSelect label="Server" data={serverOptions} {...form.getInputProps('server')} />
      </SimpleGrid>
    </OperationForm>
  );
}
