import { Badge, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import type { DmarcValidationResultData, DmarcVerdict } from '@rfckit/standards';
import type { ReactNode } from 'react';

import type { BadgeMeaning } from '../../components/rfc-legend.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { CorrectedRecordView } from '../../components/corrected-record.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { addedTagExplanations, RemovedBadge, SpecBadge, specBadgeMeanings } from './spec-badge.tsx';

type Discovery = NonNullable<DmarcValidationResultData['discovery']>;
type Lookup = Discovery['lookups'][number];
type Destination = DmarcValidationResultData['reportDestinations'][number];

const verdictText: Record<DmarcVerdict, string> = {
  valid: 'valid',
  'valid-warn': 'valid, with warnings',
  invalid: 'invalid',
  'invalid-p': 'invalid policy (p)',
  'invalid-uri': 'invalid report address',
  'no-policy': 'no DMARC processing',
  'not-dmarc': 'not a DMARC record',
};

const outcomeText: Record<Lookup['outcome'], string> = {
  record: 'one DMARC record',
  none: 'no DMARC record',
  multiple: 'several DMARC records: all discarded',
  failed: 'lookup failed',
};

// a green that keeps white text above 4.5:1 (Mantine's green.9 does not)
const accessibleGreen = '#1a682c';

const outcomeColor: Record<Lookup['outcome'], { color: string; text: string }> = {
  record: { color: accessibleGreen, text: 'white' },
  none: { color: 'gray.7', text: 'white' },
  multiple: { color: 'red.9', text: 'white' },
  failed: { color: 'orange.6', text: 'black' },
};

const sourceText = {
  author: 'its own record',
  organizational: 'its Organizational Domain’s record',
  'public-suffix': 'its Public Suffix Domain’s record',
} as const;

const destinationText: Record<
  Destination['status'],
  { label: string; color: string; text: string; meaning: string }
> = {
  'same-organization': {
    label: 'Same organisation: no check needed',
    color: 'gray.7',
    text: 'white',
    meaning:
      'The address is in the domain’s own organisation: receivers send reports without asking (RFC 7489 §7.1).',
  },
  authorized: {
    label: 'Authorised',
    color: accessibleGreen,
    text: 'white',
    meaning:
      'The other domain publishes the _report._dmarc record that accepts reports for this one (RFC 7489 §7.1).',
  },
  unauthorized: {
    label: 'Not authorised: no reports',
    color: 'red.9',
    text: 'white',
    meaning:
      'The other domain does not publish the _report._dmarc record for this one, so receivers send it no reports (RFC 7489 §7.1).',
  },
  unverifiable: {
    label: 'Cannot be verified',
    color: 'orange.6',
    text: 'black',
    meaning: 'The address is not one whose authorisation can be looked up in DNS.',
  },
  temperror: {
    label: 'Lookup failed',
    color: 'orange.6',
    text: 'black',
    meaning: 'The DNS lookup of the authorisation record failed; try again later.',
  },
};

const outcomeMeaning: Record<Lookup['outcome'], string> = {
  record: 'The name has exactly one DMARC record, which is used.',
  none: 'The name has no DMARC record; the search goes on.',
  multiple: 'The name has more than one DMARC record: receivers discard them all.',
  failed: 'The DNS lookup failed: receivers cannot tell whether a record exists.',
};

/** Every badge the validator's result shows, with its meaning, for the Requirement levels popover. */
export const dmarcResultBadges: readonly BadgeMeaning[] = [
  ...(Object.keys(outcomeText) as Lookup['outcome'][]).map((outcome) => ({
    label: outcomeText[outcome],
    meaning: outcomeMeaning[outcome],
    color: outcomeColor[outcome].color,
    textColor: outcomeColor[outcome].text,
  })),
  { label: 'OK', meaning: 'The tag is defined by the standard and its value is valid.' },
  {
    label: 'Unknown: ignored',
    meaning: 'The tag is not defined by DMARC: receivers ignore it.',
    color: 'orange.6',
    textColor: 'black',
  },
  {
    label: 'Invalid value',
    meaning: 'The tag’s value breaks its syntax.',
    color: 'red.9',
    textColor: 'white',
  },
  ...specBadgeMeanings,
  ...Object.values(destinationText).map(({ label, color, text, meaning }) => ({
    label,
    meaning,
    color,
    textColor: text,
  })),
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={4}>{title}</Title>
      {children}
    </Stack>
  );
}

function Lookups({ lookups, label }: { lookups: Lookup[]; label: string }) {
  return (
    <List type="ordered" size="sm" spacing={6} aria-label={label}>
      {lookups.map((lookup) => (
        <List.Item key={lookup.name} data-outcome={lookup.outcome}>
          <Group gap="xs" wrap="wrap">
            <Code>{lookup.name}</Code>
            <Badge
              size="sm"
              radius="sm"
              variant="filled"
              color={outcomeColor[lookup.outcome].color}
              c={outcomeColor[lookup.outcome].text}
            >
              {outcomeText[lookup.outcome]}
            </Badge>
            {lookup.psd === 'y' || lookup.psd === 'n' ? (
              <Badge size="sm" radius="sm" variant="outline">
                psd={lookup.psd}
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {lookup.dns}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

function DiscoveryView({ discovery }: { discovery: Discovery }) {
  const { policy, rfc7489 } = discovery;
  return (
    <Section title="How receivers find the policy">
      {policy ? (
        <Text size="sm" data-testid="dmarc-applied-policy">
          Mail from <strong>{discovery.domain}</strong> gets {sourceText[policy.source]} at{' '}
          <Code>_dmarc.{policy.recordDomain}</Code>: <Code>{policy.tag}</Code> ={' '}
          <strong>{policy.requested}</strong>
          {policy.testMode && policy.applied !== policy.requested
            ? `, applied as ${policy.applied} in test mode (t=y)`
            : ''}
          . Organizational Domain: <strong>{discovery.organizationalDomain}</strong>.
        </Text>
      ) : (
        <Text size="sm" data-testid="dmarc-applied-policy">
          No DMARC policy applies to <strong>{discovery.domain}</strong>
          {discovery.reason ? `: ${discovery.reason}` : ''}.
        </Text>
      )}
      <Text size="sm" fw={600}>
        RFC 9989 DNS tree walk ({discovery.lookups.length} of at most 8 queries)
      </Text>
      <Lookups lookups={discovery.lookups} label="RFC 9989 tree walk lookups" />
      {discovery.skipped.length > 0 && (
        <Text size="xs" c="dimmed">
          Skipped by the eight-query shortcut: {discovery.skipped.join(', ')}
        </Text>
      )}
      <Text size="sm" fw={600}>
        Receivers still on RFC 7489 (Public Suffix List)
      </Text>
      <Text size="sm" data-testid="dmarc-rfc7489-policy">
        {rfc7489.policy
          ? `They use the record at _dmarc.${rfc7489.policy.recordDomain}: ${rfc7489.policy.tag}=${rfc7489.policy.requested}${
              rfc7489.policy.percentage !== undefined && rfc7489.policy.percentage !== 100
                ? ` for ${rfc7489.policy.percentage}% of failing mail`
                : ''
            } (Organizational Domain ${rfc7489.organizationalDomain}).`
          : `They find no policy${rfc7489.reason ? `: ${rfc7489.reason}` : ''}.`}
      </Text>
      <Lookups lookups={rfc7489.lookups} label="RFC 7489 lookups" />
    </Section>
  );
}

/** Statuses under which a destination gets its reports. */
const deliveredStatuses: ReadonlySet<Destination['status']> = new Set(['same-organization', 'authorized']);

/**
 * The destination checks a rua or ruf tag failed, each once: the tag is not OK when a destination
 * would get no reports (RFC 7489 §7.1), whatever its syntax.
 */
function undeliveredStatuses(tag: string, destinations: readonly Destination[]): Destination['status'][] {
  const statuses = destinations
    .filter((destination) => destination.tag === tag && !deliveredStatuses.has(destination.status))
    .map((destination) => destination.status);
  return [...new Set(statuses)];
}

/** What a tag's value means for receivers: OK, removed or added by RFC 9989, unknown, invalid or undelivered. */
function TagStatus({
  tag,
  result,
}: {
  tag: NonNullable<DmarcValidationResultData['parsed']>['tags'][number];
  result: DmarcValidationResultData;
}) {
  const undelivered = undeliveredStatuses(tag.key, result.reportDestinations);
  return (
    <Group gap={6}>
      {tag.status === 'removed' && (tag.key === 'pct' || tag.key === 'ri' || tag.key === 'rf') && (
        <RemovedBadge tag={tag.key} />
      )}
      {tag.status === 'defined' && (tag.key === 'np' || tag.key === 't' || tag.key === 'psd') && (
        <SpecBadge kind="added" explanation={addedTagExplanations[tag.key]} />
      )}
      {tag.status === 'unknown' && (
        <Badge size="sm" radius="sm" color="orange.6" c="black">
          Unknown: ignored
        </Badge>
      )}
      {!tag.valid && (
        <Badge size="sm" radius="sm" color="red.9" c="white">
          Invalid value
        </Badge>
      )}
      {undelivered.map((status) => (
        <Badge
          key={status}
          size="sm"
          radius="sm"
          variant="filled"
          color={destinationText[status].color}
          c={destinationText[status].text}
        >
          {destinationText[status].label}
        </Badge>
      ))}
      {undelivered.length > 0 && (
        <Text span size="xs" c="dimmed">
          See Report destinations
        </Text>
      )}
      {tag.valid && tag.status === 'defined' && undelivered.length === 0 && (
        <Text span size="sm">
          OK
        </Text>
      )}
    </Group>
  );
}

function TagsTable({ result }: { result: DmarcValidationResultData }) {
  const parsed = result.parsed;
  if (!parsed) return null;
  return (
    <Section title="Tags">
      <DataTable
        label="Record tags"
        aria-label="Record tags"
        minWidth={520}
        verticalSpacing="xs"
        rows={parsed.tags.map((tag, index) => ({ tag, index }))}
        rowKey={({ tag, index }) => `${tag.key}-${index}`}
        rowProps={({ tag }) => ({ 'data-tag': tag.key })}
        columns={[
          {
            header: 'Tag',
            cell: ({ tag }) => tag.name,
            rowHeader: true,
            cellProps: { ff: 'monospace', fw: 500 },
          },
          {
            header: 'Value',
            cell: ({ tag }) => tag.value,
            cellProps: { ff: 'monospace', style: { overflowWrap: 'anywhere' } },
          },
          { header: 'Status', cell: ({ tag }) => <TagStatus tag={tag} result={result} /> },
        ]}
      />
      {parsed.effective && (
        <Text size="sm">
          Policies: the domain itself <strong>{parsed.effective.domain}</strong>, existing subdomains{' '}
          <strong>{parsed.effective.subdomains}</strong>, non-existent subdomains{' '}
          <strong>{parsed.effective.nonExistentSubdomains}</strong>
          {parsed.testMode ? ' (one level less in test mode)' : ''}. Alignment: SPF{' '}
          {parsed.aspf === 's' ? 'strict' : 'relaxed'}, DKIM {parsed.adkim === 's' ? 'strict' : 'relaxed'}.
        </Text>
      )}
      <Text size="sm" data-testid="dmarc-verdicts">
        RFC 9989 receivers: {verdictText[parsed.verdicts.rfc9989]}. RFC 7489 receivers:{' '}
        {verdictText[parsed.verdicts.rfc7489]}.
      </Text>
    </Section>
  );
}

function Destinations({ destinations }: { destinations: Destination[] }) {
  if (destinations.length === 0) return null;
  return (
    <Section title="Report destinations">
      <DataTable
        label="Report destinations"
        aria-label="Report destinations"
        minWidth={560}
        verticalSpacing="xs"
        rows={destinations}
        rowKey={(destination) => `${destination.tag}-${destination.uri}`}
        rowProps={(destination) => ({ 'data-status': destination.status })}
        columns={[
          { header: 'Tag', cell: (destination) => destination.tag, cellProps: { ff: 'monospace' } },
          {
            header: 'Address',
            cell: (destination) => destination.uri,
            cellProps: { ff: 'monospace', style: { overflowWrap: 'anywhere' } },
          },
          {
            header: 'Check',
            cell: (destination) => {
              const status = destinationText[destination.status];
              return (
                <>
                  <Badge size="sm" radius="sm" variant="filled" color={status.color} c={status.text}>
                    {status.label}
                  </Badge>
                  {destination.name && (
                    <Text size="xs" c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }}>
                      {destination.name}: {destination.dns}
                    </Text>
                  )}
                </>
              );
            },
          },
        ]}
      />
    </Section>
  );
}

export function ValidationResultView({ result }: { result: DmarcValidationResultData }) {
  const counts = `${result.errors.length} ${result.errors.length === 1 ? 'error' : 'errors'}, ${result.warnings.length} ${result.warnings.length === 1 ? 'warning' : 'warnings'}`;
  return (
    <Stack gap="lg">
      <Text size="sm">{counts}</Text>
      {result.record !== null && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {result.recordSource === 'dns'
              ? `Record found at _dmarc.${result.discovery?.record?.domain ?? result.domain ?? ''}`
              : 'Record checked'}
          </Text>
          <Code block className="mono-block">
            {result.record}
          </Code>
        </Stack>
      )}
      {result.diagnostics.length > 0 && (
        <Section title="Findings">
          <DiagnosticList diagnostics={result.diagnostics} heading={5} />
        </Section>
      )}
      {result.correctedRecord && <CorrectedRecordView corrected={result.correctedRecord} />}
      {result.discovery && <DiscoveryView discovery={result.discovery} />}
      <TagsTable result={result} />
      <Destinations destinations={result.reportDestinations} />
    </Stack>
  );
}
