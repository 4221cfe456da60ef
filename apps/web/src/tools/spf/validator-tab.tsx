import { Alert, Code, List, Stack, Text, Title } from '@mantine/core';
import { spfOperations, type SpfVerifyResultData } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { omitBlank, OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { CorrectedRecordView } from '../../components/corrected-record.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { IncludeTree } from './include-tree.tsx';
import { LookupBudget } from './lookup-budget.tsx';
import { failureMessage } from '../../lib/failure-message.ts';

/** Spec part 1 §8: the message when the verify request fails without a message of the server's. */
export const VERIFY_FAILED_MESSAGE = 'Failed to verify SPF record';

const titles: Record<SpfVerifyResultData['status'], string> = {
  valid: 'Valid SPF record',
  warnings: 'Valid SPF record, with warnings',
  permerror: 'SPF permerror: receivers fail this record',
  temperror: 'SPF temperror: a DNS lookup failed',
  none: 'No SPF record',
};

function Networks({ networks }: { networks: SpfVerifyResultData['networks'] }) {
  if (networks.entries.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label="Resolved networks">
      <Title order={4} size="h5">
        Resolved networks ({networks.entries.length})
      </Title>
      <Alert color="yellow" variant="light" title="Flattening goes stale">
        <Text size="sm">{networks.note}</Text>
      </Alert>
      {!networks.complete && (
        <List size="sm">
          {networks.incomplete.map((reason) => (
            <List.Item key={reason}>{reason}</List.Item>
          ))}
        </List>
      )}
      <DataTable
        label="Resolved networks, scrollable"
        minWidth={520}
        striped
        verticalSpacing="xs"
        caption="The addresses the record authorises today, in evaluation order"
        rows={networks.entries}
        rowKey={(entry) => `${entry.network}-${entry.qualifier}`}
        columns={[
          { header: 'Network', cell: (entry) => entry.network, cellProps: { ff: 'monospace' } },
          { header: 'Qualifier', cell: (entry) => entry.qualifier, cellProps: { ff: 'monospace' } },
          {
            header: 'From',
            cell: (entry) => entry.sources.map((source) => `${source.term} (${source.domain})`).join(', '),
            cellProps: { style: { overflowWrap: 'anywhere' } },
          },
        ]}
      />
      <Text size="sm" fw={600}>
        Flattened view
      </Text>
      <Code block className="mono-block" data-testid="spf-flattened">
        {networks.flattened}
      </Code>
    </Stack>
  );
}

function VerifyResult({ result }: { result: SpfVerifyResultData }) {
  return (
    <Stack gap="md">
      {result.spfRecord !== null && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {result.domain === ''
              ? 'Record checked on its own'
              : `Record ${result.tree[0]?.pasted ? 'checked as if published at' : 'found at'} ${result.domain}`}
          </Text>
          <Code block className="mono-block" data-testid="spf-verified-record">
            {result.spfRecord}
          </Code>
        </Stack>
      )}
      <LookupBudget lookups={result.lookups} label="DNS lookups" />
      <Text size="sm" data-testid="void-lookups">
        Void lookups: {result.voidLookups} of {result.voidLookupLimit}
        {result.voidLookups > result.voidLookupLimit ? ': over the limit, receivers return permerror' : ''}
      </Text>
      {result.tree.length > 0 && (
        <Stack gap="xs" component="section" aria-label="Include tree">
          <Title order={4} size="h5">
            Include tree
          </Title>
          <Text size="xs" c="dimmed">
            Arrow keys move through the tree; Left and Right collapse and expand a branch.
          </Text>
          <IncludeTree nodes={result.tree} />
        </Stack>
      )}
      {result.diagnostics.length > 0 ? (
        <DiagnosticList diagnostics={result.diagnostics} record={result.spfRecord ?? undefined} heading={4} />
      ) : (
        <Text size="sm">No problems found.</Text>
      )}
      {result.correctedRecord && <CorrectedRecordView corrected={result.correctedRecord} />}
      <Networks networks={result.networks} />
    </Stack>
  );
}

/**
 * A domain (the server fetches the record and its whole include tree), a pasted record, or both
 * (the record linted as if published at the domain). A record alone needs no domain: its include
 * and redirect targets name their own domains; only a, mx and ptr without a target and %{d}
 * macros mean the domain itself (RFC 7208 §4.8), and the result says they were not resolved.
 */
export function ValidatorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: spfOperations.verify,
    initialValues: { domain: '', spfRecord: '' },
    toBody: (values) => omitBlank(values, 'domain', 'spfRecord'),
    errorField: 'domain',
    fallbackError: VERIFY_FAILED_MESSAGE,
  });
  const domain = form.values.domain.trim();

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="SPF validator"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: form.values.spfRecord.trim()
          ? 'Checking the record and everything it includes…'
          : `Looking up the SPF record of ${domain}…`,
        empty:
          'Enter a domain to check its published SPF record, paste a record to check it before you publish it, or both.',
        errorMessage: (error) => failureMessage(error, VERIFY_FAILED_MESSAGE),
        success: (data) => ({
          title: titles[data.status],
          tone: data.valid ? 'positive' : 'negative',
          children: <VerifyResult result={data} />,
        }),
      }}
    >
      <DomainField
        description="The server fetches its SPF record and every include and redirect under it. Optional with a pasted record."
        {...form.getInputProps('domain')}
      />
      <CodeTextarea
        label="SPF record"
        description="Paste a record to check it before you publish it; its includes and redirects are fetched. Without a domain, a, mx and ptr that name no host cannot be resolved (they mean the domain itself). Ctrl + Enter validates."
        placeholder="v=spf1 include:_spf.google.com ~all"
        minRows={2}
        maxRows={10}
        {...form.getInputProps('spfRecord')}
      />
    </OperationForm>
  );
}
