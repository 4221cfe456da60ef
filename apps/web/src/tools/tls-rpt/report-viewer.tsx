import { FileInput } from '@mantine/core';
import { tlsRptOperations, type TlsRptReportResultData } from '@rfckit/standards';
import { useState } from 'react';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { CtrlEnterHint } from '../../components/paste-validator.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { reportFileText } from './gzip.ts';
import { ReportSummary } from './report-summary.tsx';

function title(result: TlsRptReportResultData): string {
  if (result.summary === null) return 'Not a TLS-RPT report';
  const failed = result.summary.failed;
  const verdict = result.valid ? 'Valid report' : 'Report with errors';
  return `${verdict}: ${failed} failed session${failed === 1 ? '' : 's'}`;
}

/** The report viewer: a pasted report, or an uploaded .json / .json.gz file, checked and summarised by the server. */
export function TlsRptReportViewer() {
  const { form, request, onSubmit, send } = useOperationForm({
    operation: tlsRptOperations.report,
    initialValues: { report: '' },
    errorField: 'report',
    fallbackError: 'Failed to read the report',
  });
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  async function load(chosen: File | null) {
    setFile(chosen);
    setFileError(null);
    if (chosen === null) return;
    try {
      const text = await reportFileText(chosen);
      form.setFieldValue('report', text);
      send({ report: text });
    } catch (error) {
      setFileError(
        `${chosen.name} could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="TLS-RPT report viewer"
      resultLabel="Report summary"
      submitLabel="Read report"
      pendingLabel="Reading..."
      panel={{
        pending: 'Reading the report…',
        empty: 'Paste a report or upload its file: the summary per policy appears here.',
        errorMessage: (error) => failureMessage(error, 'Failed to read the report'),
        success: (data) => ({
          title: title(data),
          tone: data.valid && data.summary?.failed === 0 ? 'positive' : data.valid ? undefined : 'negative',
          children: <ReportSummary result={data} />,
        }),
      }}
    >
      <FileInput
        label="Report file"
        description="A .json report, or the .json.gz attachment as it arrived; a gzip file is unpacked in your browser."
        placeholder="Choose a .json or .gz file"
        // Mantine's placeholder grey is under 4.5:1 (WCAG 1.4.3); this one is shown as text, so it needs the dimmed shade
        styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
        accept=".json,.gz,application/json,application/gzip,application/tlsrpt+json,application/tlsrpt+gzip"
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the report file' }}
        value={file}
        onChange={(chosen) => void load(chosen)}
        error={fileError}
      />
      <CodeTextarea
        label="Report JSON"
        description={
          <>
            The aggregate report (RFC 8460 §4.4) as JSON.
            <CtrlEnterHint action="reads it" />
          </>
        }
        placeholder='{"organization-name": "…", "date-range": {…}, "policies": […]}'
        minRows={4}
        maxRows={12}
        {...form.getInputProps('report')}
      />
    </OperationForm>
  );
}
