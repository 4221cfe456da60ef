import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { httpHeadersAnalyzeBody, httpHeadersOperations } from '@rfckit/standards';
import { useState, type FormEvent } from 'react';

import { ResultPanel, type ResultPanelState } from '../../components/result-panel.tsx';
import { ApiError } from '../../lib/api.ts';
import { AnalysisView } from './analysis-view.tsx';
import { useOperation } from '../../lib/operations.ts';

/** The spec's message when the call itself fails (network, unreadable answer). */
export const ANALYSIS_EXCEPTION_MESSAGE = 'Failed to analyse headers. Please check the URL and try again.';

/** Spec part 2 §8: the server's error text, else 'Analysis failed'; on an exception, the fixed message. */
export function analysisErrorMessage(error: Error): string {
  if (error instanceof ApiError && error.status > 0 && error.code !== 'BAD_RESPONSE') {
    return error.message || 'Analysis failed';
  }
  return ANALYSIS_EXCEPTION_MESSAGE;
}

export function AnalyserTab() {
  const [url, setUrl] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const analysis = useOperation(httpHeadersOperations.analyze);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (analysis.isPending) return;
    const parsed = httpHeadersAnalyzeBody.safeParse({ url });
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'URL is required');
      return;
    }
    setInputError(null);
    analysis.mutate(parsed.data);
  }

  let state: ResultPanelState;
  if (analysis.isPending) {
    state = { status: 'empty', prompt: 'Fetching the site and grading its headers…' };
  } else if (analysis.isError) {
    state = { status: 'error', message: analysisErrorMessage(analysis.error) };
  } else if (analysis.data) {
    state = {
      status: 'success',
      title: `Grade ${analysis.data.grade}`,
      tone: analysis.data.score >= 60 ? 'positive' : 'negative',
      children: <AnalysisView analysis={analysis.data} />,
    };
  } else {
    state = {
      status: 'empty',
      prompt:
        'Enter a site and choose Analyse Headers to see its score, grade, tests and recommendations here.',
    };
  }

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="URL"
            description="The server fetches it over https and http, follows redirects and grades the final response. Only public addresses are fetched."
            placeholder="https://example.com"
            value={url}
            onChange={(event) => {
              setUrl(event.currentTarget.value);
              if (inputError) setInputError(null);
            }}
            error={inputError}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            autoCapitalize="off"
          />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              Scored with the MDN HTTP Observatory’s tests and grade chart.
            </Text>
            <Button type="submit" disabled={analysis.isPending}>
              {analysis.isPending ? 'Analyzing Headers...' : 'Analyse Headers'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={state} label="Analysis result" />
    </Stack>
  );
}
