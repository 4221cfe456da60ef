import { Code, List, Stack, Text } from '@mantine/core';
import { tlsRptOperations, type TlsRptValidateResultData } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { omitBlank, OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { CtrlEnterHint } from '../../components/paste-validator.tsx';
import { failureMessage } from '../../lib/failure-message.ts';

const verdictTitles: Record<TlsRptValidateResultData['verdict'], string> = {
  valid: 'Valid TLS-RPT record',
  'valid-warn': 'Valid TLS-RPT record, with warnings',
  invalid: 'Invalid TLS-RPT record',
  'not-tls-rpt': 'Not a TLS-RPT record',
  none: 'No TLS-RPT record published',
  'no-reporting': 'Several TLS-RPT records: senders send no reports',
};

function ValidationView({
  result,
  record,
}: {
  result: TlsRptValidateResultData;
  record: string | undefined;
}) {
  const checked = record ?? (result.lookup?.records.length === 1 ? result.lookup.records[0] : undefined);
  return (
    <Stack gap="md">
      {result.lookup && (
        <Stack gap={4}>
          {/* the DNS answer's words name the record already */}
          <Text size="sm">{result.lookup.dns}</Text>
          {result.lookup.records.length > 0 && (
            <List size="sm" aria-label="TXT records found">
              {result.lookup.records.map((found) => (
                <List.Item key={found}>
                  <Code style={{ overflowWrap: 'anywhere' }}>{found}</Code>
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      )}
      {result.parsed && result.parsed.rua.length > 0 && (
        <DataTable
          label="Reporting URIs"
          caption="Reporting URIs (rua)"
          minWidth={480}
          verticalSpacing="xs"
          rows={result.parsed.rua}
          rowKey={(uri, index) => `${index}:${uri.uri}`}
          columns={[
            {
              header: 'URI',
              cell: (uri) => <Code style={{ overflowWrap: 'anywhere' }}>{uri.uri}</Code>,
              rowHeader: true,
            },
            {
              header: 'Delivery',
              cell: (uri) =>
                uri.scheme === 'mailto'
                  ? 'Email'
                  : uri.scheme === 'https'
                    ? 'HTTPS POST'
                    : (uri.scheme ?? 'none'),
            },
            { header: 'Usable', cell: (uri) => uri.problem ?? 'Yes' },
          ]}
        />
      )}
      <DiagnosticList diagnostics={result.diagnostics} record={checked} />
    </Stack>
  );
}

/** The spec's validator: a pasted record (trimmed), or a domain whose _smtp._tls TXT records the server looks up. */
export function TlsRptValidator() {
  const { form, request, onSubmit } = useOperationForm({
    operation: tlsRptOperations.validate,
    initialValues: { domain: '', record: '' },
    toBody: (values) => omitBlank(values, 'record', 'domain'),
    errorField: 'record',
    fallbackError: 'Validation failed',
  });
  const domain = form.values.domain.trim();
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="TLS-RPT record validator"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: domain ? `Looking up _smtp._tls.${domain}…` : 'Validating the record…',
        empty: 'Paste a TLS-RPT record, or enter a domain to look up the one it publishes.',
        errorMessage: (error) => failureMessage(error, 'Validation failed'),
        success: (data, sent) => ({
          title: verdictTitles[data.verdict],
          tone: data.valid ? 'positive' : 'negative',
          children: <ValidationView result={data} record={sent?.record} />,
        }),
      }}
    >
      <CodeTextarea
        label="TLS-RPT record"
        description={
          <>
            The TXT value, e.g. v=TLSRPTv1; rua=mailto:tlsrpt@example.com. Leave it blank to look up the
            domain below.
            <CtrlEnterHint />
          </>
        }
        placeholder="v=TLSRPTv1; rua=mailto:tlsrpt@example.com"
        minRows={2}
        maxRows={8}
        {...form.getInputProps('record')}
      />
      <DomainField
        description="Without a pasted record, the server reads the TXT records at _smtp._tls.<domain> as a sender does."
        {...form.getInputProps('domain')}
      />
    </OperationForm>
  );
}
