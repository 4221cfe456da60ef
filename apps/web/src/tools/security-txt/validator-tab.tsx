import { Button, Group, Kbd, SegmentedControl, Stack } from '@mantine/core';
import { securityTxtOperations, securityTxtValidateBody } from '@rfckit/standards';
import { useState, type FormEvent } from 'react';

import { requestPanelState } from '../../components/request-form.ts';
import { CodeTextarea } from '../../components/code-textarea.tsx';
import { ResultPanel } from '../../components/result-panel.tsx';
import { FetchValidator } from './fetch-validator.tsx';
import { useOperation } from '../../lib/operations.ts';
import { failureMessage } from '../../lib/failure-message.ts';
import { ValidationResultView } from './validation-result.tsx';

const placeholder = [
  'Contact: mailto:security@example.com',
  'Encryption: https://example.com/pgp-key.txt',
  'Expires: 2026-12-31T23:59:59Z',
  'Policy: https://example.com/security-policy.html',
].join('\n');

type Mode = 'paste' | 'fetch';

const modes: { value: Mode; label: string }[] = [
  { value: 'paste', label: 'Paste the file' },
  { value: 'fetch', label: 'Fetch from a site' },
];

/** Validate pasted content, or have the server fetch a site's file and add the HTTP checks. */
export function ValidatorTab() {
  const [mode, setMode] = useState<Mode>('paste');
  return (
    <Stack gap="lg">
      <SegmentedControl
        aria-label="Where the file comes from"
        data={modes}
        value={mode}
        onChange={(value) => setMode(value as Mode)}
        style={{ alignSelf: 'flex-start' }}
      />
      {mode === 'paste' ? <PasteValidator /> : <FetchValidator />}
    </Stack>
  );
}

function PasteValidator() {
  const [content, setContent] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  // the text the shown result is about, to quote its lines
  const [validated, setValidated] = useState('');
  const validation = useOperation(securityTxtOperations.validate);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (validation.isPending) return;
    const body = publicKey.trim() ? { content, publicKey } : { content };
    // the shared schema gives the same message the server would
    const parsed = securityTxtValidateBody.safeParse(body);
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'security.txt content is required');
      validation.reset();
      return;
    }
    setInputError(null);
    setValidated(content);
    validation.mutate(parsed.data);
  }

  const state = requestPanelState(validation, {
    pending: 'Validating the file…',
    empty: 'Paste a security.txt file and choose Validate to see every finding with its line.',
    errorMessage: (error) => failureMessage(error, 'Validation failed'),
    success: (data) => ({
      title: data.valid ? 'Valid security.txt' : 'Invalid security.txt',
      tone: data.valid ? 'positive' : 'negative',
      children: <ValidationResultView result={data} content={validated} />,
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="security.txt validator">
        <Stack gap="sm">
          <CodeTextarea
            label="security.txt content"
            description={
              <>
                The file as published, signed or not. <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd>{' '}
                validates.
              </>
            }
            placeholder={placeholder}
            value={content}
            onChange={(event) => {
              setContent(event.currentTarget.value);
              if (inputError) setInputError(null);
            }}
            error={inputError}
            minRows={8}
            maxRows={24}
          />
          <CodeTextarea
            label="Signer’s OpenPGP public key (optional)"
            description="For a signed file: paste the key it should be signed with, and the signature is verified."
            placeholder="-----BEGIN PGP PUBLIC KEY BLOCK-----"
            value={publicKey}
            onChange={(event) => setPublicKey(event.currentTarget.value)}
            minRows={2}
            maxRows={10}
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
