import { httpHeadersOperations } from '@rfckit/standards';

import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { ApiError } from '../../lib/api.ts';
import { AnalysisView } from './analysis-view.tsx';

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
  const { form, request, onSubmit } = useOperationForm({
    operation: httpHeadersOperations.analyze,
    initialValues: { url: '' },
    errorField: 'url',
    fallbackError: 'URL is required',
  });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      resultLabel="Analysis result"
      // spec part 2 fixes the busy label 'Analyzing Headers...'; the button is spelt the same way
      submitLabel="Analyze Headers"
      pendingLabel="Analyzing Headers..."
      hint="Scored with the MDN HTTP Observatory’s tests and grade chart."
      panel={{
        pending: 'Fetching the site and grading its headers…',
        empty:
          'Enter a site and choose Analyze Headers to see its score, grade, tests and recommendations here.',
        errorMessage: analysisErrorMessage,
        success: (data) => ({
          title: `Grade ${data.grade}`,
          tone: data.score >= 60 ? 'positive' : 'negative',
          children: <AnalysisView analysis={data} />,
        }),
      }}
    >
      <DomainField
        label="URL"
        description="The server fetches it over https and http, follows redirects and grades the final response. Only public addresses are fetched."
        placeholder="https://example.com"
        type="url"
        inputMode="url"
        autoComplete="url"
        {...form.getInputProps('url')}
      />
    </OperationForm>
  );
}
