import { Button, Group, Kbd, Stack } from '@mantine/core';
import { dkimOperations, dkimValidateBody } from '@rfckit/standards';
import { useState, type FormEvent } from 'react';

import { requestPanelState } from '../../components/request-form.ts';
import { CodeTextarea } from '../../components/code-textarea.tsx';
import { ResultPanel } from '../../components/result-panel.tsx';
import { useOperation } from '../../lib/operations.ts';
import { ValidationResultView } from './validation-result.tsx';

const placeholder = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA…';

/** Record mode: validates a pasted key record (the spec's 'record' validator mode). */
export function RecordValidator() {
  const [record, setRecord] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const validation = useOperation(dkimOperations.validate);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (validation.isPending) return;
    const parsed = dkimValidateBody.safeParse({ record });
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'DKIM record is required');
      return;
    }
    setInputError(null);
    validation.mutate(parsed.data);
  }

  const state = requestPanelState(validation, {
    pending: 'Validating the record…',
    empty: 'Paste a DKIM key record and choose Validate to see its tags, key and findings here.',
    errorMessage: (error) => `Validation failed: ${error.message}`,
    success: (data) => ({
      title:
        data.parsed?.status === 'revoked'
          ? 'Revoked DKIM key'
          : data.valid
            ? 'Valid DKIM key record'
            : 'Invalid DKIM key record',
      tone: data.valid ? 'positive' : 'negative',
      children: <ValidationResultView result={data} />,
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="Validate a DKIM record">
        <Stack gap="sm">
          <CodeTextarea
            label="DKIM record"
            description={
              <>
                The TXT value of selector._domainkey.domain, its quoted strings, or a whole zone-file line;
                strings are joined as verifiers join them. <Kbd size="xs">Ctrl</Kbd> +{' '}
                <Kbd size="xs">Enter</Kbd> validates.
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
