import { Code, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { mtaStsOperations, type MtaStsValidationResultData } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { FieldRow } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { CtrlEnterHint } from '../../components/paste-validator.tsx';
import { failureMessage } from '../../lib/failure-message.ts';

type Kind = 'policy' | 'record';

const kinds = {
  policy: {
    label: 'Policy file',
    field: 'MTA-STS policy',
    description: 'The text served at https://mta-sts.{domain}/.well-known/mta-sts.txt.',
    placeholder: 'version: STSv1\nmode: enforce\nmx: mail.example.com\nmax_age: 604800',
  },
  record: {
    label: 'TXT record',
    field: 'MTA-STS TXT record',
    description: 'The TXT value published at _mta-sts.{domain}, with or without its quotes.',
    placeholder: 'v=STSv1; id=20240101120000',
  },
} as const;

function Summary({ result }: { result: MtaStsValidationResultData }) {
  const parsed = result.parsed;
  if (parsed === undefined) return null;
  if (parsed.kind === 'record') {
    return (
      <Table variant="vertical" layout="fixed" withTableBorder aria-label="Record fields">
        <Table.Tbody>
          <FieldRow label="id">
            <Text size="sm" ff="monospace">
              {parsed.id ?? 'none usable'}
            </Text>
          </FieldRow>
        </Table.Tbody>
      </Table>
    );
  }
  return (
    <Table variant="vertical" layout="fixed" withTableBorder aria-label="What senders read">
      <Table.Tbody>
        <FieldRow label="mode">
          <Text size="sm" ff="monospace">
            {parsed.mode ?? 'not usable'}
          </Text>
        </FieldRow>
        <FieldRow label="max_age">
          <Text size="sm" ff="monospace">
            {parsed.maxAge === null ? 'not usable' : `${parsed.maxAge} s`}
          </Text>
        </FieldRow>
        <FieldRow label="mx">
          {parsed.mx.length === 0 ? (
            <Text size="sm">none</Text>
          ) : (
            <Stack gap={2}>
              {parsed.mx.map((pattern, index) => (
                <Code key={`${pattern}-${index}`} style={{ overflowWrap: 'anywhere' }}>
                  {pattern}
                </Code>
              ))}
            </Stack>
          )}
        </FieldRow>
      </Table.Tbody>
    </Table>
  );
}

/** A pasted policy file (the spec's validator) or _mta-sts TXT record, checked by the server against RFC 8461 §3. */
export function ValidatorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: mtaStsOperations.validate,
    initialValues: { kind: 'policy' as Kind, text: '' },
    errorField: 'text',
    fallbackError: 'MTA-STS policy is required',
  });
  const kind = form.values.kind;
  const chosen = kinds[kind];

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="MTA-STS validator"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: 'Validating…',
        empty:
          'Paste a policy file or a TXT record and choose Validate: each finding comes with its RFC section and a fix.',
        errorMessage: (error) => failureMessage(error, 'Validation failed'),
        success: (data, sent) => {
          const what = data.kind === 'record' ? 'MTA-STS record' : 'MTA-STS policy';
          const text = sent?.text ?? '';
          return {
            title: data.valid ? `Valid ${what}` : `Invalid ${what}`,
            tone: data.valid ? 'positive' : 'negative',
            children: (
              <Stack gap="md">
                <Summary result={data} />
                <DiagnosticList
                  diagnostics={data.diagnostics}
                  {...(data.kind === 'record' ? { record: text } : { lines: text.split(/\r?\n/) })}
                />
                {data.diagnostics.length === 0 && (
                  <Text size="sm">No findings: senders will accept it as written.</Text>
                )}
              </Stack>
            ),
          };
        },
      }}
    >
      <SegmentedControl
        aria-label="What to validate"
        data={(Object.keys(kinds) as Kind[]).map((value) => ({ value, label: kinds[value].label }))}
        value={kind}
        onChange={(value) => {
          form.setFieldValue('kind', value as Kind);
          form.clearFieldError('text');
          request.reset();
        }}
        style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
      />
      <CodeTextarea
        label={chosen.field}
        description={
          <>
            {chosen.description}
            <CtrlEnterHint />
          </>
        }
        placeholder={chosen.placeholder}
        minRows={kind === 'policy' ? 5 : 2}
        maxRows={16}
        {...form.getInputProps('text')}
      />
    </OperationForm>
  );
}
