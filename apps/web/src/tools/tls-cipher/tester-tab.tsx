import { NativeSelect, Progress, Stack, Text, TextInput } from '@mantine/core';
import {
  protocolLabel,
  starttlsProtocolSchema,
  tlsCipherOperations,
  type TlsScanProgress,
} from '@rfckit/standards';

import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { useOperationWithProgress } from '../../lib/operations.ts';
import { ScanResult } from './scan-result.tsx';

/** Spec part 2 §8: the tester's failure text, with its fallback when the answer explained nothing. */
export const testFailure = (error: Error) =>
  `Failed to test TLS configuration: ${error.message || 'API request failed'}`;

const starttlsNames: Record<string, string> = {
  smtp: 'SMTP',
  imap: 'IMAP',
  pop3: 'POP3',
  ftp: 'FTP',
  xmpp: 'XMPP',
  ldap: 'LDAP',
  postgres: 'PostgreSQL',
};

/** What the scanner is doing, in words. */
export function progressWords(progress: TlsScanProgress): string {
  const version =
    progress.version === undefined
      ? ''
      : progress.version === 'SSLv2'
        ? 'SSL 2.0 '
        : `${protocolLabel(progress.version)} `;
  switch (progress.phase) {
    case 'versions':
      return 'Finding the protocol versions the server accepts';
    case 'suites':
      return `Finding the ${version}cipher suites`;
    case 'preference':
      return `Reading the server’s ${version}suite order`;
    case 'groups':
      return 'Probing key exchange groups';
    case 'features':
      return 'Probing extensions and vulnerabilities';
    case 'certificate':
      return 'Reading the certificate chain';
    case 'done':
      return 'Grading the configuration';
  }
}

function ScanProgress({ progress }: { progress: TlsScanProgress | null }) {
  const percent =
    progress === null || progress.total === 0 ? 0 : Math.round((progress.done / progress.total) * 100);
  const words = progress === null ? 'Connecting to the server' : progressWords(progress);
  return (
    <Stack gap={4} data-testid="tls-progress">
      <Progress value={percent} animated aria-label={`Scan progress: ${words}`} />
      <Text size="sm">
        {words}
        {progress !== null && progress.total > 0 ? ` · ${progress.done} of ${progress.total} probes` : ''}
      </Text>
    </Stack>
  );
}

export function TesterTab() {
  const request = useOperationWithProgress(tlsCipherOperations.analyse);
  const { form, onSubmit } = useOperationForm({
    operation: tlsCipherOperations.analyse,
    request,
    initialValues: { host: '', port: '443', starttls: '' },
    // a blank port is the default 443; anything else is checked as a number
    toBody: ({ host, port, starttls }) => ({
      host,
      ...(port.trim() === '' ? {} : { port: Number(port.trim()) }),
      ...(starttls === '' ? {} : { starttls: starttlsProtocolSchema.parse(starttls) }),
    }),
    errorField: 'host',
    fallbackError: 'Hostname is required',
  });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Test a TLS server"
      resultLabel="TLS test result"
      submitLabel="Test TLS"
      pendingLabel="Testing TLS..."
      hint="Every version and suite is probed, then graded after SSL Labs’ rating guide."
      panel={{
        pending: 'Scanning the server: this takes a few seconds.',
        empty:
          'Enter a host and choose Test TLS to see its grade, suites, certificate, vulnerabilities and fixes here.',
        errorMessage: testFailure,
        success: (data) => ({
          title: `${data.report.host}:${data.report.port}: ${data.grade === null ? 'not graded' : `grade ${data.grade}`}`,
          tone:
            data.score !== null && data.score >= 80 && data.grade?.startsWith('A') === true
              ? 'positive'
              : 'negative',
          children: <ScanResult analysis={data} />,
        }),
      }}
    >
      <DomainField
        label="Hostname"
        description="A host name or IP address. Only public addresses are scanned."
        placeholder="example.com"
        {...form.getInputProps('host')}
      />
      <TextInput
        label="Port"
        description="443 for HTTPS; 25, 587, 993 … with STARTTLS or implicit TLS."
        inputMode="numeric"
        autoComplete="off"
        {...form.getInputProps('port')}
      />
      <NativeSelect
        label="STARTTLS"
        description="Upgrade a plain-text session first, as mail and directory servers do."
        data={[
          { value: '', label: 'None (TLS from the start)' },
          ...starttlsProtocolSchema.options.map((value) => ({ value, label: starttlsNames[value] ?? value })),
        ]}
        {...form.getInputProps('starttls')}
      />
      {request.isPending && <ScanProgress progress={request.progress} />}
    </OperationForm>
  );
}
