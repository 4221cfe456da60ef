import { Button, Group, Kbd, Stack } from '@mantine/core';
import { dnskeyOperations, dnskeyValidateBody } from '@rfckit/standards';
import { useState, type FormEvent } from 'react';

import { requestPanelState } from '../../components/request-form.ts';
import { CodeTextarea } from '../../components/code-textarea.tsx';
import { ResultPanel } from '../../components/result-panel.tsx';
import { useOperation } from '../../lib/operations.ts';
import { ValidationResultView } from './validation-result.tsx';

const placeholder = 'example.com. 3600 IN DNSKEY 257 3 13 <base64 public key>';

export function ValidatorTab() {
  const [record, setRecord] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const validation = useOperation(dnskeyOperations.validate);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (validation.isPending) return;
    // the shared schema gives the same message the server would
    const parsed = dnskeyValidateBody.safeParse({ record });
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'DNSKEY record is required');
      return;
    }
    setInputError(null);
    validation.mutate(parsed.data);
  }

  const state = requestPanelState(validation, {
    pending: 'Validating the record…',
    empty: 'Paste a DNSKEY record and choose Validate to see its fields, key tag and DS records here.',
    success: (data) => ({
      title: data.valid ? 'Valid DNSKEY record' : 'Invalid DNSKEY record',
      tone: data.valid ? 'positive' : 'negative',
      children: <ValidationResultView result={data} />,
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <CodeTextarea
            label="DNSKEY record"
            description={
              <>
                A zone-file line as dig or your DNS provider shows it, or just the four fields: flags,
                protocol, algorithm, public key. Include the owner name to get DS records.{' '}
                <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd> validates.
              </>
            }
            placeholder={placeholder}
            value={record}
            onChange={(event) => {
              setRecord(event.currentTarget.value);
              if (inputError) setInputError(null);
            }}
            error={inputError}
            minRows={4}
            maxRows={14}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={validation.isPending}>
              {validation.isPending ? 'Validating...' : 'Validate'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={state} label="Validation result" />
    </Stack>
  );
}
