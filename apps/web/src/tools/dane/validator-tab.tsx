import { Stack, Table } from '@mantine/core';
import { daneOperations, tlsaParametersLine, type TlsaValidationResultData } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { FieldRow } from '../../components/data-table.tsx';
import { OperationForm, omitBlank, useOperationForm } from '../../components/operation-form.tsx';
import { CtrlEnterHint } from '../../components/paste-validator.tsx';
import { ResultSection } from '../../components/result-section.tsx';
import { ChainList } from './chain-list.tsx';

function ValidationView({ result, record }: { result: TlsaValidationResultData; record: string }) {
  const parsed = result.parsed;
  return (
    <Stack gap="md">
      {parsed && (
        <ResultSection title="Fields">
          <Table>
            <Table.Tbody>
              {parsed.owner && <FieldRow label="Owner">{parsed.owner.name}</FieldRow>}
              <FieldRow label="Parameters">
                {tlsaParametersLine(parsed.usage, parsed.selector, parsed.matchingType)}
              </FieldRow>
              <FieldRow label="Data">{parsed.dataOctets} octets</FieldRow>
            </Table.Tbody>
          </Table>
        </ResultSection>
      )}
      {result.chain && (
        <ResultSection title="Certificate chain">
          <ChainList
            certificates={result.chain.certificates}
            matched={result.chain.matched === null ? [] : [result.chain.matched]}
          />
        </ResultSection>
      )}
      <DiagnosticList diagnostics={result.diagnostics} record={record} />
    </Stack>
  );
}

/** The answer's heading: a well-formed record whose match with the chain failed is still a valid record. */
export function validationTitle(result: TlsaValidationResultData): string {
  if (result.valid) return result.chain ? 'Valid TLSA record that matches the chain' : 'Valid TLSA record';
  if (!result.recordValid) return 'Invalid TLSA record';
  if (result.chain === undefined) return 'Valid TLSA record; the pasted chain could not be read';
  return result.chain.matching.length > 0
    ? 'Valid TLSA record whose usage does not fit the certificate it matches'
    : 'Valid TLSA record that matches no certificate of the pasted chain';
}

export function ValidatorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: daneOperations.validate,
    initialValues: { record: '', chain: '' },
    toBody: (values) => omitBlank(values, 'chain'),
    errorField: 'record',
    fallbackError: 'TLSA record is required',
  });
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Validate a TLSA record"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: 'Validating the record…',
        empty: 'Paste a TLSA record, and optionally the certificate chain, then choose Validate.',
        success: (data, body) => ({
          title: validationTitle(data),
          tone: data.valid ? 'positive' : 'negative',
          children: <ValidationView result={data} record={body?.record ?? ''} />,
        }),
      }}
    >
      <CodeTextarea
        label="TLSA record"
        description={
          <>
            A zone-file line as dig prints it, or just the four fields: usage, selector, matching type and hex
            data.
            <CtrlEnterHint />
          </>
        }
        placeholder="_25._tcp.mail.example.com. IN TLSA 3 1 1 <64 hex digits>"
        minRows={2}
        maxRows={8}
        {...form.getInputProps('record')}
      />
      <CodeTextarea
        label="Certificate chain (optional)"
        description="PEM certificates the server sends, the server certificate first: the result says which one the record matches. Never paste a private key."
        placeholder="-----BEGIN CERTIFICATE-----"
        minRows={3}
        maxRows={10}
        {...form.getInputProps('chain')}
      />
    </OperationForm>
  );
}
