import { NativeSelect, Progress, Stack, Text, TextInput } from '@mantine/core';
import {
  protocolLabel,
  starttlsProtocolNames,
  starttlsProtocolSchema,
  tlsCipherOperations,
  type TlsScanProgress,
} from '@rfckit/standards';
import { useState } from 'react';

import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import type { CouldNotCheckAdvice } from '../../lib/failure-message.ts';
import { useOperationWithProgress } from '../../lib/operations.ts';
import { ScanResult } from './scan-result.tsx';

/** Spec part 2 §8: the tester's failure text, with its fallback when the answer explained nothing. */
export const testFailure = (error: Error) =>
  `Failed to test TLS configuration: ${error.message || 'API request failed'}`;

/** What to do when the target could not be scanned: the port, STARTTLS, or waiting for the server. */
const testerAdvice: CouldNotCheckAdvice = {
  PROTOCOL_ERROR:
    'Trying again will not help: the port does not serve TLS from the first byte. Check the port, or choose STARTTLS if the service upgrades a plain-text session (SMTP on 25 or 587, IMAP on 143, POP3 on 110).',
  CONNECT_FAILED:
    'Check the host and port: nothing accepted the connection there, or a firewall drops it. If the server should be up, try again in a moment.',
  FIRST_BYTE_TIMEOUT:
    'The port accepted the connection but did not answer TLS: check the port, or choose STARTTLS if the service waits for the client to speak first (XMPP, LDAP, PostgreSQL). A busy server may answer on a retry.',
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

/** The bar stays below this until the scan is done: probes are still being found until then. */
export const progressCeiling = 95;

/**
 * The bar's next value: done/total only moves forward (the total grows as the scan finds more
 * probes to send), held under `progressCeiling` until the result, 100 only when done.
 */
export function nextProgressPercent(previous: number, progress: TlsScanProgress | null): number {
  if (progress === null) return 0;
  if (progress.phase === 'done') return 100;
  const share = progress.total === 0 ? 0 : Math.round((progress.done / progress.total) * 100);
  return Math.min(progressCeiling, Math.max(previous, share));
}

/** What a screen reader hears for the bar: the phase and the counts, not a percentage that may stall. */
export function progressValueText(progress: TlsScanProgress | null): string {
  if (progress === null) return 'Connecting to the server';
  const counts = progress.total > 0 ? `, ${progress.done} of ${progress.total} probes so far` : '';
  return `${progressWords(progress)}${counts}`;
}

function ScanProgress({ progress }: { progress: TlsScanProgress | null }) {
  // the highest value shown so far in this scan, so the bar never moves back
  const [percent, setPercent] = useState(0);
  const next = nextProgressPercent(percent, progress);
  if (next !== percent) setPercent(next);
  const words = progress === null ? 'Connecting to the server' : progressWords(progress);
  return (
    <Stack gap={4} data-testid="tls-progress">
      <Progress.Root>
        {/* Mantine's own aria-valuetext is the bare percentage: the phase and counts say more */}
        <Progress.Section
          value={next}
          animated
          withAria={false}
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={next}
          aria-valuetext={progressValueText(progress)}
          aria-label={`Scan progress: ${words}`}
        />
      </Progress.Root>
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
        couldNotCheckAdvice: testerAdvice,
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
          ...starttlsProtocolSchema.options.map((value) => ({ value, label: starttlsProtocolNames[value] })),
        ]}
        {...form.getInputProps('starttls')}
      />
      {request.isPending && <ScanProgress progress={request.progress} />}
    </OperationForm>
  );
}
