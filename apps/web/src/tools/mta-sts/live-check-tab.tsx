import { Anchor, Group, Stack, Text } from '@mantine/core';
import { mtaStsOperations, type MtaStsCheckResultData } from '@rfckit/standards';
import { Link, useSearchParams } from 'react-router';

import { DataTable } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { useLinkedRun } from '../../components/linked-run.ts';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { ResultSection } from '../../components/result-section.tsx';
import { badgeMeanings, passGreen, StatusBadge, type StatusStyle } from '../../components/status-badge.tsx';
import { failureMessage } from '../../lib/failure-message.ts';

type Verdict = MtaStsCheckResultData['verdict'];
type Host = MtaStsCheckResultData['mx']['hosts'][number];

const verdictStyles: Record<Verdict, StatusStyle> = {
  pass: {
    text: 'pass',
    colour: passGreen,
    textColour: 'white',
    meaning: 'Every MX host matches the policy and offers STARTTLS with a certificate senders accept.',
  },
  warn: {
    text: 'warning',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'Mail is delivered, but something would fail in enforce mode or needs attention.',
  },
  fail: {
    text: 'fail',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'Mail to some MX hosts would fail, or the published MTA-STS cannot be used by senders.',
  },
  none: {
    text: 'no MTA-STS',
    colour: 'gray.7',
    textColour: 'white',
    meaning: 'No MTA-STS is in effect: no record, or a policy in mode none.',
  },
};

const hostStyles = {
  delivers: {
    text: 'delivers',
    colour: passGreen,
    textColour: 'white',
    meaning: 'A sender applying the policy delivers to this MX host.',
  },
  wouldFail: {
    text: 'mail would fail',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'In enforce mode a sender does not deliver to this MX host (RFC 8461 §5).',
  },
  reported: {
    text: 'would fail if enforced',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'In testing mode mail is still delivered and the failure is reported (TLS-RPT).',
  },
  noPolicy: {
    text: 'no policy applied',
    colour: 'gray.7',
    textColour: 'white',
    meaning: 'No usable MTA-STS policy: senders deliver with whatever TLS the host offers.',
  },
  unreached: {
    text: 'not reached',
    colour: 'gray.7',
    textColour: 'white',
    meaning: 'The host has no address or did not answer on port 25, so its TLS was not checked.',
  },
} satisfies Record<string, StatusStyle>;

/** Every badge of the Live check, for the page's badge legend. */
export const liveCheckBadges = [...badgeMeanings(verdictStyles), ...badgeMeanings(hostStyles)];

function hostStyle(host: Host, mode: MtaStsCheckResultData['policy']['mode']): StatusStyle {
  if (host.wouldFail) return hostStyles.wouldFail;
  if (host.diagnostics.some((diagnostic) => diagnostic.severity === 'warning') && mode === 'testing')
    return hostStyles.reported;
  if (mode === null || mode === 'none') return hostStyles.noPolicy;
  if (host.starttls === null) return hostStyles.unreached;
  return hostStyles.delivers;
}

const yesNo = (value: boolean | null, yes: string, no: string) => (value === null ? '—' : value ? yes : no);

function inspectorLink(domain: string, host: string): string {
  return `/tools/smtp-session-inspector?${new URLSearchParams({ tab: 'inspector', domain, host }).toString()}`;
}

function HostTable({ result }: { result: MtaStsCheckResultData }) {
  return (
    <DataTable
      label="MX hosts"
      minWidth={820}
      rows={result.mx.hosts}
      rowKey={(host) => host.host}
      rowProps={(host) => ({ 'data-testid': `mx-${host.host}` })}
      columns={[
        {
          header: 'MX host',
          rowHeader: true,
          cell: (host) => (
            <Stack gap={2}>
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {host.preference} {host.host}
              </Text>
              {host.cnameTarget !== null && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  alias of {host.cnameTarget}
                </Text>
              )}
              <Anchor component={Link} to={inspectorLink(result.domain, host.host)} size="xs">
                Inspect the SMTP session
              </Anchor>
            </Stack>
          ),
        },
        {
          header: 'Result',
          // room for the widest mark, "would fail if enforced", without cutting it
          cellProps: { style: { minWidth: '11.5rem' } },
          cell: (host) => (
            <StatusBadge style={hostStyle(host, result.policy.mode)} label={`${host.host} result`} />
          ),
        },
        {
          header: 'Policy pattern',
          cell: (host) => (
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {host.matchedPattern ?? (result.policy.mode === null ? '—' : 'no match')}
            </Text>
          ),
        },
        { header: 'STARTTLS', cell: (host) => yesNo(host.starttls, 'offered', 'not offered') },
        { header: 'TLS', cell: (host) => host.tlsVersion ?? '—' },
        { header: 'Trust', cell: (host) => yesNo(host.trusted, 'trusted', 'untrusted') },
        { header: 'Name', cell: (host) => yesNo(host.nameMatches, 'matches', 'wrong name') },
        { header: 'Dates', cell: (host) => yesNo(host.expired, 'expired', 'valid') },
      ]}
    />
  );
}

function PolicyView({ result }: { result: MtaStsCheckResultData }) {
  const { policy } = result;
  return (
    <ResultSection title="Policy">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {policy.url}
        {policy.status === null ? '' : ` — HTTP ${policy.status}`}
        {policy.contentType === null ? '' : `, ${policy.contentType}`}
        {policy.bytes > 0 ? `, ${policy.bytes} bytes` : ''}
      </Text>
      {policy.mode !== null && (
        <Text size="sm">
          Mode <strong>{policy.mode}</strong>, max_age {policy.maxAge ?? '—'} s, mx{' '}
          {policy.mx.length === 0 ? 'none' : policy.mx.join(', ')}
        </Text>
      )}
      {policy.raw !== null && (
        <Text
          component="pre"
          size="xs"
          ff="monospace"
          m={0}
          aria-label="Policy as fetched"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {policy.raw}
        </Text>
      )}
      <DiagnosticList diagnostics={policy.diagnostics} variant="list" label="About the policy" />
    </ResultSection>
  );
}

export function liveCheckTitle(result: MtaStsCheckResultData): string {
  const what: Record<Verdict, string> = {
    pass: 'MTA-STS passes',
    warn: 'MTA-STS works with warnings',
    fail: 'MTA-STS fails',
    none: 'No MTA-STS',
  };
  return `${what[result.verdict]} for ${result.domain}`;
}

/** The live check's answer: verdict, record, policy, the MX hosts as a sender judges them, and why. */
export function LiveCheckView({ result }: { result: MtaStsCheckResultData }) {
  const { record, mx } = result;
  return (
    <Stack gap="lg">
      <Group gap="xs" wrap="wrap">
        <StatusBadge style={verdictStyles[result.verdict]} label="Verdict" />
        <Text size="sm">{result.summary}</Text>
      </Group>
      <DiagnosticList diagnostics={result.diagnostics} variant="list" label={`About ${result.domain}`} />
      <ResultSection title="Record">
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {record.name}: {record.raw ?? (record.found ? 'more than one v=STSv1 record' : 'no v=STSv1 record')}
        </Text>
        <DiagnosticList diagnostics={record.diagnostics} variant="list" label="About the record" />
      </ResultSection>
      {record.id !== null && <PolicyView result={result} />}
      <ResultSection title="MX hosts">
        {mx.nullMx && <Text size="sm">Null MX: the domain accepts no mail (RFC 7505).</Text>}
        {mx.dnsError !== null && <Text size="sm">{mx.dnsError}</Text>}
        {mx.hosts.length > 0 && <HostTable result={result} />}
        {mx.hosts
          .filter((host) => host.diagnostics.length > 0)
          .map((host) => (
            <DiagnosticList
              key={host.host}
              diagnostics={host.diagnostics}
              variant="list"
              label={`Why, for ${host.host}`}
            />
          ))}
      </ResultSection>
      <Text size="sm">
        Senders report MTA-STS failures to the domain through TLS-RPT:{' '}
        <Anchor component={Link} to="/tools/tls-rpt" underline="always">
          set up or read TLS-RPT reports
        </Anchor>
        .
      </Text>
    </Stack>
  );
}

/**
 * Checks a domain's MTA-STS live, as a sending MTA applies it (RFC 8461): the record, the policy
 * fetched over HTTPS, every MX host's STARTTLS and certificate. `?tab=check&domain=…` in the address
 * fills the form and runs it, and a check run here writes it there, so a check can be linked and shared.
 */
export function LiveCheckTab() {
  const [searchParams] = useSearchParams();
  const linked = { domain: searchParams.get('domain')?.trim() ?? '' };
  const { form, request, send } = useOperationForm({
    operation: mtaStsOperations.check,
    initialValues: linked,
    errorField: 'domain',
    fallbackError: 'Domain is required',
  });
  const run = useLinkedRun({
    tab: 'check',
    linked,
    fromAddress: linked.domain !== '',
    fill: form.setValues,
    send,
  });

  return (
    <OperationForm
      request={request}
      onSubmit={(event) => {
        event.preventDefault();
        run(form.getValues());
      }}
      formLabel="Check a domain's MTA-STS live"
      resultLabel="Live check result"
      submitLabel="Check"
      pendingLabel="Checking..."
      hint="The policy is fetched as senders must (HTTPS, no redirects, 64 KB, 15 s) and every MX host is checked at once."
      panel={{
        pending: 'Reading the record, fetching the policy and opening STARTTLS with every MX host…',
        empty: 'Enter a mail domain to check its MTA-STS record, policy and MX hosts as a sending MTA would.',
        errorMessage: (error) => failureMessage(error, 'The live check failed'),
        success: (data) => ({
          title: liveCheckTitle(data),
          tone: data.verdict === 'pass' ? 'positive' : data.verdict === 'fail' ? 'negative' : undefined,
          children: <LiveCheckView result={data} />,
        }),
      }}
    >
      <DomainField
        label="Mail domain"
        description="The domain after the @; its MX hosts are checked as senders do."
        {...form.getInputProps('domain')}
      />
    </OperationForm>
  );
}
