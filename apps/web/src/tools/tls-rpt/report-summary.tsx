import { Code, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TlsRptReportResultData } from '@rfckit/standards';

import { DataTable } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';

type Summary = NonNullable<TlsRptReportResultData['summary']>;
type Policy = Summary['policies'][number];
type FailureGroup = Policy['failureGroups'][number];
type Detail = FailureGroup['details'][number] & { key: string };

const categoryLabels = {
  negotiation: 'TLS negotiation',
  dane: 'DANE policy',
  sts: 'MTA-STS policy',
} as const;

function utc(time: string | null): string {
  return time === null ? 'unknown' : `${time.slice(0, 19).replace('T', ' ')} UTC`;
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}

function share(part: number, whole: number): string {
  return whole === 0 ? '' : ` (${((part / whole) * 100).toFixed(1)} %)`;
}

function PolicyResult({ policy, index }: { policy: Policy; index: number }) {
  const total = policy.successful + policy.failed;
  const details: Detail[] = policy.failureGroups.flatMap((group) =>
    group.details.map((detail, at) => ({ ...detail, key: `${group.resultType}:${at}` })),
  );
  const name = `Policy ${index + 1}: ${policy.policyType} for ${policy.policyDomain || 'an unnamed domain'}`;
  return (
    <Paper withBorder p="md" component="section" aria-label={name}>
      <Stack gap="sm">
        <Title order={4}>{name}</Title>
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <Figure
            label="Successful sessions"
            value={`${policy.successful}${share(policy.successful, total)}`}
          />
          <Figure label="Failed sessions" value={`${policy.failed}${share(policy.failed, total)}`} />
          <Figure label="MX hosts in the policy" value={policy.mxHosts.join(', ') || 'not given'} />
        </SimpleGrid>
        {policy.policyString.length > 0 && (
          <Stack gap={2}>
            <Text size="sm" fw={600}>
              Policy applied
            </Text>
            <Code block className="mono-block">
              {policy.policyString.join('\n')}
            </Code>
          </Stack>
        )}
        {policy.failureGroups.length === 0 ? (
          <Text size="sm">No failures reported for this policy.</Text>
        ) : (
          <>
            <DataTable
              label={`Failures by result type, ${name}`}
              caption="Failures by result type"
              minWidth={620}
              verticalSpacing="xs"
              rows={policy.failureGroups}
              rowKey={(group) => group.resultType}
              columns={[
                { header: 'Result type', cell: (group) => <Code>{group.resultType}</Code>, rowHeader: true },
                { header: 'Sessions', cell: (group) => group.sessions },
                {
                  header: 'Kind',
                  cell: (group) => (group.category ? categoryLabels[group.category] : 'not in RFC 8460'),
                },
                {
                  header: 'What it means and what to do',
                  cell: (group) => (
                    <Text size="sm">
                      {group.meaning ?? 'A result type RFC 8460 does not define.'} {group.fix}
                    </Text>
                  ),
                },
              ]}
            />
            <DataTable
              label={`Failure details, ${name}`}
              caption="Failure details"
              minWidth={720}
              verticalSpacing="xs"
              rows={details}
              rowKey={(detail) => detail.key}
              columns={[
                {
                  header: 'Result type',
                  cell: (detail) => <Code>{detail.resultType}</Code>,
                  rowHeader: true,
                },
                { header: 'Sending MTA', cell: (detail) => detail.sendingMtaIp ?? '—' },
                {
                  header: 'Receiving MX',
                  cell: (detail) => (
                    <span style={{ overflowWrap: 'anywhere' }}>
                      {detail.receivingMxHostname ?? '—'}
                      {detail.receivingIp ? ` (${detail.receivingIp})` : ''}
                    </span>
                  ),
                },
                { header: 'Sessions', cell: (detail) => detail.failedSessionCount },
                {
                  header: 'Reason',
                  cell: (detail) => (
                    <span style={{ overflowWrap: 'anywhere' }}>
                      {[detail.failureReasonCode, detail.additionalInformation].filter(Boolean).join(' · ') ||
                        '—'}
                    </span>
                  ),
                },
              ]}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** A report's metadata, then per policy its session counts and failures by result type, sending MTA and receiving MX. */
export function ReportSummary({ result }: { result: TlsRptReportResultData }) {
  const { summary } = result;
  return (
    <Stack gap="md">
      {summary && (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
            <Figure label="Reporting organisation" value={summary.organizationName || 'not given'} />
            <Figure label="Contact" value={summary.contactInfo || 'not given'} />
            <Figure label="Report ID" value={summary.reportId || 'not given'} />
            <Figure label="From" value={utc(summary.startDatetime)} />
            <Figure label="To" value={utc(summary.endDatetime)} />
            <Figure
              label="Sessions"
              value={`${summary.successful} successful, ${summary.failed} failed${share(summary.failed, summary.successful + summary.failed)}`}
            />
          </SimpleGrid>
          <Text size="sm">
            {summary.policies.length} {summary.policies.length === 1 ? 'policy' : 'policies'} in the report.
          </Text>
          {summary.policies.map((policy, index) => (
            <PolicyResult key={index} policy={policy} index={index} />
          ))}
        </>
      )}
      <DiagnosticList diagnostics={result.diagnostics} />
    </Stack>
  );
}
