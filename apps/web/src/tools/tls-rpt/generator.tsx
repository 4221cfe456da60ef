import { Text, TextInput } from '@mantine/core';
import { tlsRptGenerateBody, tlsRptMaxUris, tlsRptOperations } from '@rfckit/standards';
import type { FormEvent } from 'react';

import { CopyBlock } from '../../components/copy-block.tsx';
import { GeneratorForm } from '../../components/generator-form.tsx';
import { formErrorKey, useCheckedForm } from '../../components/operation-form.tsx';
import { requestPanelState } from '../../components/request-form.ts';
import { TextRowList } from '../../components/text-row-list.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { useOperation } from '../../lib/operations.ts';

interface GeneratorValues {
  domain: string;
  reportingUris: string[];
}

/** The spec's generator: a domain and reporting URIs (one empty row to start); the server writes the record. */
export function TlsRptGenerator() {
  const { form, validated } = useCheckedForm({
    initialValues: { domain: '', reportingUris: [''] } as GeneratorValues,
    check: (values: GeneratorValues) => tlsRptGenerateBody.safeParse({ ...values, version: 'TLSRPTv1' }),
    fallbackError: 'Failed to generate TLS-RPT record',
  });
  const generating = useOperation(tlsRptOperations.generate);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (generating.isPending) return;
    const body = validated(form.getValues());
    if (body === undefined) {
      generating.reset();
      return;
    }
    generating.mutate(body);
  }

  const result = requestPanelState(generating, {
    pending: 'Generating the record…',
    empty: 'Enter your domain and where reports should go, then choose Generate record.',
    errorMessage: (error) => failureMessage(error, 'Failed to generate TLS-RPT record'),
    success: (data) => ({
      title: `TLS-RPT record for ${data.name}`,
      tone: 'positive',
      children: (
        <>
          <CopyBlock label="Name (TXT)" value={data.name} copyAriaLabel="Copy the record name" />
          <CopyBlock
            label="Value"
            value={data.record}
            copyAriaLabel="Copy the record value"
            testId="tlsrpt-record"
          />
          <CopyBlock label="Zone-file line" value={data.zoneLine} copyAriaLabel="Copy the zone-file line" />
        </>
      ),
    }),
  });

  return (
    <GeneratorForm
      formLabel="TLS-RPT record generator"
      onSubmit={submit}
      error={form.errors[formErrorKey]}
      submitLabel="Generate record"
      pendingLabel="Generating..."
      pending={generating.isPending}
      result={result}
      resultLabel="Generated record"
    >
      <TextInput
        {...form.getInputProps('domain')}
        label="Domain"
        description="The domain that receives mail; the record is published at _smtp._tls.<domain>."
        placeholder="example.com"
        required
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
      />
      <TextRowList
        legend="Reporting URIs (rua)"
        rowLabel="Reporting URI"
        addLabel="Add reporting URI"
        values={form.values.reportingUris}
        errorOf={(index) => form.errors[`reportingUris.${index}`]?.toString()}
        description="Where senders deliver daily reports: mailto:address or https://host/path. Blank rows are left out."
        placeholderOf={(index) =>
          index === 0 ? 'mailto:tlsrpt@example.com' : 'https://tlsrpt.example.com/v1'
        }
        inputProps={{ type: 'text', inputMode: 'url' }}
        max={tlsRptMaxUris}
        onChange={(reportingUris) => form.setFieldValue('reportingUris', reportingUris)}
      />
      {form.errors.reportingUris && (
        <Text size="sm" c="red" role="alert">
          {form.errors.reportingUris}
        </Text>
      )}
    </GeneratorForm>
  );
}
