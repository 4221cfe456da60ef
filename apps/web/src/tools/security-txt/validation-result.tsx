import { Stack, Text, Title } from '@mantine/core';
import type { Diagnostic, SecurityTxtValidationResultData } from '@rfckit/standards';

import { DataTable } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';

/** The lines of the text as the validator numbers them: split on LF, CR dropped, no line after a final LF. */
export function splitLines(content: string): string[] {
  const lines = content.split('\n').map((line) => line.replace(/\r$/, ''));
  if (content.endsWith('\n')) lines.pop();
  return lines;
}

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function SignatureSummary({ result }: { result: SecurityTxtValidationResultData }) {
  const signature = result.parsed?.signature;
  if (!signature) return null;
  const verification = signature.verification;
  const signers = signature.signers.map((s) => s.fingerprint ?? s.keyId ?? 'an unnamed key').join(', ');
  let verdict: string;
  if (!verification) verdict = 'Not verified: supply the signer’s public key to check it.';
  else if (verification.status === 'good') verdict = `Good signature from ${verification.fingerprint}.`;
  else if (verification.status === 'bad') verdict = 'Bad signature: it does not match the text.';
  else if (verification.status === 'wrong-key') verdict = 'Made by a different key than the one supplied.';
  else verdict = 'Not verified: see the findings.';
  return (
    <Stack gap={4} component="section" aria-label="Signature">
      <Title order={4}>OpenPGP signature</Title>
      <Text size="sm" data-testid="security-txt-signature">
        {verdict}
      </Text>
      <Text size="xs" c="dimmed">
        Signed by {signers || 'no key named in the signature'}
        {signature.hashes.length > 0 ? `; Hash header ${signature.hashes.join(', ')}` : ''}.
      </Text>
    </Stack>
  );
}

function FieldsTable({ result }: { result: SecurityTxtValidationResultData }) {
  const fields = result.parsed?.fields ?? [];
  if (fields.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label="Fields">
      <Title order={4}>Fields</Title>
      <DataTable
        label="Fields of the file"
        minWidth={480}
        caption="Fields as read, with their lines"
        verticalSpacing={4}
        style={{ overflowWrap: 'anywhere' }}
        rows={fields}
        rowKey={(field) => field.line}
        columns={[
          { header: 'Line', cell: (field) => field.line, cellProps: { ff: 'monospace' } },
          {
            header: 'Field',
            cell: (field) => (
              <>
                {field.name}
                {!field.known && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    (not registered)
                  </Text>
                )}
              </>
            ),
            rowHeader: true,
            cellProps: { fw: 500 },
          },
          { header: 'Value', cell: (field) => field.value, cellProps: { ff: 'monospace' } },
        ]}
      />
    </Stack>
  );
}

/** Findings grouped by severity, each with its line and that line's text; then signature and fields. */
export function ValidationResultView({
  result,
  content,
}: {
  result: SecurityTxtValidationResultData;
  /** The text that was validated, to quote the lines findings point at. */
  content: string;
}) {
  const lines = splitLines(content);
  const count = (severity: Diagnostic['severity']) =>
    result.diagnostics.filter((d) => d.severity === severity).length;
  return (
    <Stack gap="lg">
      <Text size="sm">
        {plural(count('error'), 'error', 'errors')},{' '}
        {plural(count('warning'), 'recommendation', 'recommendations')},{' '}
        {plural(count('info'), 'note', 'notes')}
      </Text>
      <DiagnosticList
        diagnostics={result.diagnostics}
        heading={4}
        counted={false}
        wording="recommendations"
        lines={lines}
      />
      <SignatureSummary result={result} />
      <FieldsTable result={result} />
    </Stack>
  );
}
