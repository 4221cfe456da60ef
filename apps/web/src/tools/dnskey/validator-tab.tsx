import { Button, Group, Kbd, Stack, Textarea } from '@mantine/core';
import { dnskeyValidateBody } from '@rfckit/standards';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { ResultPanel, type ResultPanelState } from '../../components/result-panel.tsx';
import { useValidateDnskey } from './use-validate-dnskey.ts';
import { ValidationResultView } from './validation-result.tsx';

const placeholder = 'example.com. 3600 IN DNSKEY 257 3 13 <base64 public key>';

export function ValidatorTab() {
  const [record, setRecord] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const validation = useValidateDnskey();

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

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  }

  let state: ResultPanelState;
  if (validation.isPending) {
    state = { status: 'empty', prompt: 'Validating the record…' };
  } else if (validation.isError) {
    state = { status: 'error', message: validation.error.message };
  } else if (validation.data) {
    state = {
      status: 'success',
      title: validation.data.valid ? 'Valid DNSKEY record' : 'Invalid DNSKEY record',
      tone: validation.data.valid ? 'positive' : 'negative',
      children: <ValidationResultView result={validation.data} />,
    };
  } else {
    state = {
      status: 'empty',
      prompt: 'Paste a DNSKEY record and choose Validate to see its fields, key tag and DS records here.',
    };
  }

  return (
    <Stack gap="lg">
      <form ref={formRef} onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Textarea
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
            onKeyDown={onKeyDown}
            error={inputError}
            autosize
            minRows={4}
            maxRows={14}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
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
