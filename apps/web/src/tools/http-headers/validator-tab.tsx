import { Button, Group, Kbd, Stack, Textarea } from '@mantine/core';
import { httpHeadersValidateBody } from '@rfckit/standards';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { ResultPanel, type ResultPanelState } from '../../components/result-panel.tsx';
import { AnalysisView } from './analysis-view.tsx';
import { useValidateHeaders } from './use-http-headers.ts';

const placeholder = [
  'HTTP/2 200',
  'content-type: text/html; charset=utf-8',
  'strict-transport-security: max-age=63072000; includeSubDomains',
  "content-security-policy: default-src 'self'; frame-ancestors 'none'",
  'x-content-type-options: nosniff',
].join('\n');

export function ValidatorTab() {
  const [headers, setHeaders] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const validation = useValidateHeaders();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (validation.isPending) return;
    const parsed = httpHeadersValidateBody.safeParse({ headers });
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'Response headers are required');
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
    state = { status: 'empty', prompt: 'Grading the headers…' };
  } else if (validation.isError) {
    state = { status: 'error', message: validation.error.message || 'Validation failed' };
  } else if (validation.data) {
    state = {
      status: 'success',
      title: `Grade ${validation.data.grade}`,
      tone: validation.data.score >= 60 ? 'positive' : 'negative',
      children: <AnalysisView analysis={validation.data} />,
    };
  } else {
    state = {
      status: 'empty',
      prompt:
        'Paste response headers and choose Validate to see the score, grade, tests and recommendations here.',
    };
  }

  return (
    <Stack gap="lg">
      <form ref={formRef} onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Textarea
            label="Response headers"
            description={
              <>
                As your browser’s developer tools or <code>curl -sI https://example.com</code> show them; the
                status line is optional. Paste <code>curl -i</code> output to include the HTML body, which
                Subresource Integrity needs. Nothing is fetched. <Kbd size="xs">Ctrl</Kbd> +{' '}
                <Kbd size="xs">Enter</Kbd> validates.
              </>
            }
            placeholder={placeholder}
            value={headers}
            onChange={(event) => {
              setHeaders(event.currentTarget.value);
              if (inputError) setInputError(null);
            }}
            onKeyDown={onKeyDown}
            error={inputError}
            autosize
            minRows={6}
            maxRows={20}
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
