import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { smtpTlsOperations } from '@rfckit/standards';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { CopyBlock } from '../../components/copy-block.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { useOperation } from '../../lib/operations.ts';

/** The tab's `?tab=` value. */
export const backendInfoTab = 'backend-info';

/** Backend Info (spec part 2 §4): loaded from `GET /v1/smtp-tls-enforce/info` each time the tab opens. */
export function BackendInfoTab() {
  const [searchParams] = useSearchParams();
  const open = searchParams.get('tab') === backendInfoTab;
  const request = useOperation(smtpTlsOperations.info);
  const { mutate } = request;
  useEffect(() => {
    if (open) mutate({});
  }, [open, mutate]);

  return (
    <Stack gap="md" aria-busy={request.isPending}>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          What this server checks, and its limits, as it reports them now.
        </Text>
        <Button variant="default" size="xs" onClick={() => mutate({})} disabled={request.isPending}>
          {request.isPending ? 'Loading...' : 'Reload'}
        </Button>
      </Group>
      {request.isError && (
        <Text c="red.8" role="alert">
          {failureMessage(request.error, 'Failed to load the server information')}
        </Text>
      )}
      {request.data !== undefined && (
        <Stack gap="lg">
          <Stack gap="xs" component="section" aria-label="Checks">
            <Title order={3}>Checks</Title>
            <DataTable
              label="Checks this server makes"
              minWidth={560}
              rows={request.data.checks}
              rowKey={(check) => check.name}
              columns={[
                { header: 'Check', cell: (check) => check.name, rowHeader: true },
                { header: 'What', cell: (check) => <Text size="sm">{check.description}</Text> },
                { header: 'RFC', cell: (check) => check.rfc },
              ]}
            />
          </Stack>
          <Stack gap="xs" component="section" aria-label="Services">
            <Title order={3}>Services</Title>
            <DataTable
              label="Services and ports"
              minWidth={480}
              rows={request.data.services}
              rowKey={(service) => service.serviceType}
              columns={[
                { header: 'Service type', cell: (service) => service.serviceType, rowHeader: true },
                { header: 'Port', cell: (service) => service.port },
                {
                  header: 'TLS',
                  cell: (service) => (service.tls === 'implicit' ? 'Implicit TLS' : 'STARTTLS'),
                },
                { header: 'SRV', cell: (service) => service.srvService ?? '—' },
              ]}
            />
          </Stack>
          <Stack gap="xs" component="section" aria-label="Limits">
            <Title order={3}>Limits</Title>
            <DataTable
              label="Limits of a check"
              minWidth={420}
              rows={request.data.limits}
              rowKey={(limit) => limit.name}
              columns={[
                { header: 'Limit', cell: (limit) => limit.name, rowHeader: true },
                { header: 'Value', cell: (limit) => limit.value },
              ]}
            />
          </Stack>
          <CopyBlock
            label="Raw answer"
            value={JSON.stringify(request.data, null, 2)}
            copyAriaLabel="Copy the raw answer"
          />
        </Stack>
      )}
    </Stack>
  );
}
