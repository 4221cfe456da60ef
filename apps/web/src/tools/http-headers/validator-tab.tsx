import { httpHeadersOperations } from '@rfckit/standards';

import { CtrlEnterHint, PasteValidator } from '../../components/paste-validator.tsx';
import { AnalysisView } from './analysis-view.tsx';

const placeholder = [
  'HTTP/2 200',
  'content-type: text/html; charset=utf-8',
  'strict-transport-security: max-age=63072000; includeSubDomains',
  "content-security-policy: default-src 'self'; frame-ancestors 'none'",
  'x-content-type-options: nosniff',
].join('\n');

export function ValidatorTab() {
  return (
    <PasteValidator
      operation={httpHeadersOperations.validate}
      field="headers"
      label="Response headers"
      description={
        <>
          As your browser’s developer tools or <code>curl -sI https://example.com</code> show them; the status
          line is optional. Paste <code>curl -i</code> output to include the HTML body, which Subresource
          Integrity needs. Nothing is fetched.
          <CtrlEnterHint />
        </>
      }
      placeholder={placeholder}
      minRows={6}
      maxRows={20}
      fallbackError="Response headers are required"
      panel={{
        pending: 'Grading the headers…',
        empty:
          'Paste response headers and choose Validate to see the score, grade, tests and recommendations here.',
        errorMessage: (error) => error.message || 'Validation failed',
        success: (data) => ({
          title: `Grade ${data.grade}`,
          tone: data.score >= 60 ? 'positive' : 'negative',
          children: <AnalysisView analysis={data} />,
        }),
      }}
    />
  );
}
