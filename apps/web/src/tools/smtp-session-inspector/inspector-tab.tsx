import { Badge, Button, Group, NativeSelect, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import {
  smtpInspectorPorts,
  smtpSessionInspectorOperations,
  type SmtpInspectResult,
  type SmtpMxResult,
} from '@rfckit/standards';
import { type ReactNode, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { PageSection } from '../../components/page-section.tsx';
import { ResultSection } from '../../components/result-section.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { useOperationWithProgress } from '../../lib/operations.ts';
import { stepSummary, Transcript } from './transcript.tsx';

const portLabels: Record<(typeof smtpInspectorPorts)[number], string> = {
  25: '25: server to server, STARTTLS',
  587: '587: submission, STARTTLS',
  465: '465: submission, TLS from the start',
};

/** A neutral tag beside a host name: its preference, implicit MX. */
function NoteBadge({ children }: { children: ReactNode }) {
  return (
    <Badge variant="light" color="gray" radius="sm" size="sm" tt="none" c="var(--mantine-color-text)">
      {children}
    </Badge>
  );
}

function MxHosts({ result, onInspect }: { result: SmtpMxResult; onInspect: (host: string) => void }) {
  return (
    <Stack gap="md">
      {result.hosts.length > 0 && (
        <Stack
          component="ol"
          gap="xs"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label="MX hosts by preference"
        >
          {result.hosts.map((host) => (
            <Group component="li" key={host.host} justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {host.host}
                  </Text>
                  <NoteBadge>preference {host.preference}</NoteBadge>
                  {host.implicit && <NoteBadge>implicit MX</NoteBadge>}
                </Group>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {host.addresses.length > 0 ? host.addresses.join(', ') : (host.problem ?? 'no address')}
                  {host.cnameTarget !== null && ` · alias of ${host.cnameTarget}`}
                </Text>
              </Stack>
              <Button
                size="xs"
                variant="light"
                onClick={() => onInspect(host.host)}
                aria-label={`Inspect ${host.host}`}
              >
                Inspect
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      <DiagnosticList diagnostics={result.diagnostics} variant="section" label="MX findings" heading={4} />
    </Stack>
  );
}

function mxTitle(result: SmtpMxResult): string {
  if (result.dnsError !== null) return `${result.domain}: MX lookup failed`;
  if (result.nullMx) return `${result.domain} accepts no mail (null MX)`;
  return `${result.domain}: ${result.hosts.length} mail host${result.hosts.length === 1 ? '' : 's'}`;
}

function TlsSummary({ tls }: { tls: NonNullable<SmtpInspectResult['tls']> }) {
  const leaf = tls.chain[0];
  return (
    <Stack component="dl" gap={4} m={0}>
      {[
        ['Version', tls.version],
        ['Cipher suite', tls.cipher],
        ['Certificate', leaf === undefined ? 'none' : `${leaf.subject}, issued by ${leaf.issuer}`],
        ['Names', leaf?.dnsNames.join(', ') || 'none'],
        [
          'Valid',
          leaf === undefined ? '-' : `${leaf.notBefore.slice(0, 10)} to ${leaf.notAfter.slice(0, 10)}`,
        ],
        ['Trusted', tls.trusted ? 'yes' : `no: ${tls.trustError ?? 'no path to a trusted root'}`],
        ['Name matches', tls.nameMatches ? 'yes' : 'no'],
        ['Expired', tls.expired ? 'yes' : 'no'],
      ].map(([term, value]) => (
        <Group key={term} gap="xs" wrap="nowrap" align="flex-start">
          <Text component="dt" size="sm" fw={600} style={{ minWidth: 110 }}>
            {term}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {value}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

export function SessionResult({ result }: { result: SmtpInspectResult }) {
  return (
    <Stack gap="md">
      <ResultSection title="Transcript">
        <Transcript steps={result.steps} label={`SMTP transcript of ${result.host} port ${result.port}`} />
      </ResultSection>
      {result.extensions.length > 0 && (
        <ResultSection title="Extensions">
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {result.mode === 'implicit' ? 'Over TLS: ' : 'Before TLS: '}
            {result.extensions.join(', ')}
          </Text>
          {result.extensionsAfterTls !== null && (
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              After STARTTLS: {result.extensionsAfterTls.join(', ')}
            </Text>
          )}
        </ResultSection>
      )}
      {result.tls !== null && (
        <ResultSection title="TLS">
          <TlsSummary tls={result.tls} />
        </ResultSection>
      )}
      {result.deviations.length === 0 ? (
        <Text size="sm">No deviation from RFC 5321, 3207 or 8314 was seen.</Text>
      ) : (
        <DiagnosticList diagnostics={result.deviations} variant="section" label="Deviations" heading={4} />
      )}
    </Stack>
  );
}

function sessionTitle(result: SmtpInspectResult): string {
  const where = `${result.host} port ${result.port}`;
  if (!result.completed) return `${where}: the session did not complete`;
  const errors = result.deviations.filter((d) => d.severity === 'error').length;
  return errors === 0 ? `${where}: session completed` : `${where}: ${errors} error${errors === 1 ? '' : 's'}`;
}

export function InspectorTab() {
  const [searchParams] = useSearchParams();
  const linkedDomain = searchParams.get('domain')?.trim() ?? '';
  const linkedHost = searchParams.get('host')?.trim() ?? '';
  const linkedPort = searchParams.get('port')?.trim() ?? '';

  const mx = useOperationForm({
    operation: smtpSessionInspectorOperations.mx,
    initialValues: { domain: linkedDomain },
    errorField: 'domain',
    fallbackError: 'Domain is required',
  });

  const request = useOperationWithProgress(smtpSessionInspectorOperations.inspect);
  const inspect = useOperationForm({
    operation: smtpSessionInspectorOperations.inspect,
    request,
    initialValues: {
      host: linkedHost,
      port: (smtpInspectorPorts as readonly number[]).includes(Number(linkedPort)) ? linkedPort : '25',
      domain: linkedDomain,
    },
    toBody: ({ host, port, domain }) => ({
      host,
      port: Number(port),
      ...(domain.trim() === '' ? {} : { domain }),
    }),
    errorField: 'host',
    fallbackError: 'Hostname is required',
  });
  const liveSteps = request.progressEvents;

  // linked values run once, when the tab opens
  const ranLinked = useRef(false);
  useEffect(() => {
    if (ranLinked.current) return;
    ranLinked.current = true;
    if (linkedDomain !== '') mx.send({ domain: linkedDomain });
    if (linkedHost !== '') inspect.send(inspect.form.getValues());
  });

  // an MX host's button starts its session on the chosen port, as if typed below and sent
  function inspectHost(host: string) {
    const values = { ...inspect.form.getValues(), host, domain: mx.form.getValues().domain.trim() };
    inspect.form.setValues(values);
    inspect.send(values);
  }

  const last = liveSteps.at(-1);
  return (
    <Stack gap="xl">
      <PageSection title="1. Find the mail hosts">
        <OperationForm
          request={mx.request}
          onSubmit={mx.onSubmit}
          formLabel="Find the MX hosts of a domain"
          resultLabel="MX hosts"
          submitLabel="Look up MX"
          pendingLabel="Looking up..."
          panel={{
            pending: 'Looking up the MX records and their addresses…',
            empty: 'Enter a mail domain to list its MX hosts by preference, or enter a host below directly.',
            errorMessage: (error) => failureMessage(error, 'MX lookup failed'),
            success: (data) => ({
              title: mxTitle(data),
              tone: data.hosts.length > 0 && data.dnsError === null ? 'positive' : 'negative',
              children: <MxHosts result={data} onInspect={inspectHost} />,
            }),
          }}
        >
          <DomainField
            description="The part after @ in the mail address, e.g. example.com."
            {...mx.form.getInputProps('domain')}
          />
        </OperationForm>
      </PageSection>

      <PageSection title="2. Talk to a mail host">
        <OperationForm
          request={request}
          onSubmit={inspect.onSubmit}
          formLabel="Inspect an SMTP session"
          resultLabel="SMTP session result"
          submitLabel="Inspect session"
          pendingLabel="Inspecting..."
          hint="Banner, EHLO, STARTTLS, TLS, EHLO, QUIT: never MAIL FROM or DATA."
          panel={{
            pending: 'Talking to the server: each step appears above as it ends.',
            empty:
              'Choose a host and port to watch the session step by step, with the TLS details and deviations.',
            errorMessage: (error) => failureMessage(error, 'Session inspection failed'),
            success: (data) => ({
              title: sessionTitle(data),
              tone:
                data.completed && !data.deviations.some((d) => d.severity === 'error')
                  ? 'positive'
                  : 'negative',
              children: <SessionResult result={data} />,
            }),
          }}
        >
          <TextInput
            label="Hostname"
            description="The mail host: an MX host name (or an IP address). Only public addresses are contacted."
            placeholder="mx1.example.com"
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            {...inspect.form.getInputProps('host')}
          />
          <NativeSelect
            label="Port"
            data={smtpInspectorPorts.map((port) => ({ value: String(port), label: portLabels[port] }))}
            {...inspect.form.getInputProps('port')}
          />
          {request.isPending && (
            <Stack gap="xs">
              <Transcript steps={liveSteps} label="Live SMTP transcript" />
              {liveSteps.length === 0 && <Text size="sm">Connecting…</Text>}
            </Stack>
          )}
          <VisuallyHidden aria-live="polite" role="status">
            {request.isPending && last !== undefined ? stepSummary(last) : ''}
          </VisuallyHidden>
        </OperationForm>
      </PageSection>
    </Stack>
  );
}
