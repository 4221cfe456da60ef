import { Alert, Button, Group, Kbd, Stack, TextInput } from '@mantine/core';
import { type ArcChainResult, arcOperations, arcValidateBody, arcValidateRequired } from '@rfckit/standards';
import { useState, type FormEvent } from 'react';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { monospaceInput, requestPanelState } from '../../components/request-form.ts';
import { ResultPanel } from '../../components/result-panel.tsx';
import { useOperation } from '../../lib/operations.ts';
import { ValidationResultView } from './validation-result.tsx';

const placeholder = [
  'ARC-Seal: i=1; a=rsa-sha256; cv=none; d=lists.example.org; s=arc; t=…; b=…',
  'ARC-Message-Signature: i=1; a=rsa-sha256; c=relaxed/relaxed; d=lists.example.org; …',
  'ARC-Authentication-Results: i=1; lists.example.org; spf=pass …',
  'From: …',
].join('\n');

const verdictTitle: Record<ArcChainResult, string> = {
  pass: 'ARC chain passes',
  fail: 'ARC chain fails',
  none: 'No ARC chain',
};

/** The Validator tab: validates the ARC chain of pasted header fields or a whole message, keys from DNS. */
export function ValidatorTab() {
  const [domain, setDomain] = useState('');
  const [record, setRecord] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const validation = useOperation(arcOperations.validate);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (validation.isPending) return;
    const parsed = arcValidateBody.safeParse({ record, domain: domain.trim() });
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? arcValidateRequired);
      validation.reset();
      return;
    }
    setInputError(null);
    validation.mutate(parsed.data);
  }

  const state = requestPanelState(validation, {
    pending: 'Validating the chain…',
    empty:
      'Enter your domain, paste the ARC header fields or the whole message and choose Validate to check the chain here.',
    errorMessage: (error) => `Validation failed: ${error.message}`,
    success: (data) => ({
      title: verdictTitle[data.chain.result],
      ...(data.chain.result === 'none' ? {} : { tone: data.valid ? 'positive' : 'negative' }),
      children: <ValidationResultView result={data} />,
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="Validate an ARC chain">
        <Stack gap="sm">
          <TextInput
            label="Domain"
            description="Your receiving domain: the table shows which seals come from it or its subdomains"
            placeholder="example.com"
            value={domain}
            onChange={(event) => {
              setDomain(event.currentTarget.value);
              if (inputError) setInputError(null);
            }}
            required
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            styles={monospaceInput}
          />
          <CodeTextarea
            label="ARC headers or message"
            description={
              <>
                The ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results fields, or the whole
                message as received (up to 1 MiB). Paste the whole message to have the body hash of the newest
                signature checked. Keys are looked up in DNS. <Kbd size="xs">Ctrl</Kbd> +{' '}
                <Kbd size="xs">Enter</Kbd> validates.
              </>
            }
            placeholder={placeholder}
            value={record}
            onChange={(event) => {
              setRecord(event.currentTarget.value);
              if (inputError) setInputError(null);
            }}
            required
            minRows={8}
            maxRows={24}
          />
          {inputError && (
            <Alert color="red" variant="light" role="alert">
              {inputError}
            </Alert>
          )}
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
