import { Button, Group, Kbd, Stack } from '@mantine/core';
import { httpHeadersOperations, httpHeadersValidateBody } from '@rfckit/standards';
import { useState, type FormEvent } from 'react';

import { requestPanelState } from '../../components/request-form.ts';
import { CodeTextarea } from '../../components/code-textarea.tsx';
import { ResultPanel } from '../../components/result-panel.tsx';
import { AnalysisView } from './analysis-view.tsx';
import { useOperation } from '../../lib/operations.ts';

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
  const validation = useOperation(httpHeadersOperations.validate);

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

  const state = requestPanelState(validation, {
    pending: 'Grading the headers…',
    empty:
      'Paste response headers and choose Validate to see the score, grade, tests and recommendations here.',
    errorMessage: (error) => error.message || 'Validation failed',
    success: (data) => ({
      title: `Grade ${data.grade}`,
      tone: data.score >= 60 ? 'positive' : 'negative',
      children: <AnalysisView analysis={data} />,
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <CodeTextarea
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
            error={inputError}
            minRows={6}
            maxRows={20}
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
