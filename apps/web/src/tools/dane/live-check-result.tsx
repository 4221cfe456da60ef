import { Anchor, Group, List, Stack, Text, Title } from '@mantine/core';
import type {
  DaneCheckRecord,
  DaneCheckResult,
  DaneEndpoint,
  DaneLookup,
  DaneVerdict,
  SecurityStatus,
} from '@rfckit/standards';
import { Link } from 'react-router';

import { DataTable } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { ResultSection } from '../../components/result-section.tsx';
import { badgeMeanings, passGreen, StatusBadge, type StatusStyle } from '../../components/status-badge.tsx';
import { ChainList } from './chain-list.tsx';

const verdictStyles: Record<DaneVerdict, StatusStyle> = {
  pass: {
    text: 'pass',
    colour: passGreen,
    textColour: 'white',
    meaning: 'A usable TLSA record in a signed zone authenticates the certificate the server presents.',
  },
  fail: {
    text: 'fail',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'DANE is published but not met: senders and clients that use DANE must not deliver or connect.',
  },
  'not-applicable': {
    text: 'not applicable',
    colour: 'gray.7',
    textColour: 'white',
    meaning:
      'No DANE to meet: the name does not exist or has no address, the zone is unsigned, or there are no usable TLSA records.',
  },
  indeterminate: {
    text: 'no verdict',
    colour: 'orange.6',
    textColour: 'black',
    meaning:
      'DNS did not answer, so nothing can be said; senders and clients that use DANE wait until it does.',
  },
};

const dnssecStyles: Record<SecurityStatus, StatusStyle> = {
  secure: {
    text: 'DNSSEC secure',
    colour: passGreen,
    textColour: 'white',
    meaning: 'Validated by rfckit from the root trust anchor down (RFC 4035 §4.3).',
  },
  insecure: {
    text: 'DNSSEC insecure',
    colour: 'gray.7',
    textColour: 'white',
    meaning: 'Proven to lie in an unsigned zone: its answers carry no DANE.',
  },
  bogus: {
    text: 'DNSSEC bogus',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'A signature or proof fails: treated as an attack, and nothing is delivered (RFC 7672 §2.1.1).',
  },
  indeterminate: {
    text: 'DNSSEC indeterminate',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'The answers the proof needs could not be had.',
  },
};

const recordStyles = {
  matched: {
    text: 'matches',
    colour: passGreen,
    textColour: 'white',
    meaning: 'The record authenticates the server.',
  },
  rejected: {
    text: 'no match',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'A usable record whose data or checks do not fit the presented chain.',
  },
  unusable: {
    text: 'unusable',
    colour: 'gray.7',
    textColour: 'white',
    meaning: 'Clients ignore the record (RFC 6698 §4.1; usages 0 and 1 on port 25, RFC 7672 §3.1.3).',
  },
} satisfies Record<string, StatusStyle>;

/** Every badge of the Live check, for the page's badge legend. */
export const liveCheckBadges = [
  ...badgeMeanings(verdictStyles),
  ...badgeMeanings(dnssecStyles),
  ...badgeMeanings(recordStyles),
];

export function liveCheckTitle(result: DaneCheckResult): string {
  const what = {
    pass: 'DANE passes',
    fail: 'DANE fails',
    'not-applicable': 'DANE does not apply',
    indeterminate: 'DANE could not be checked',
  };
  return `${what[result.verdict]} for ${result.host}`;
}

/** The DNSKEY tool's Chain tab for a name and type: the full chain of trust behind a status. */
function ChainLink({ name, type }: { name: string; type: string }) {
  const params = new URLSearchParams({ tab: 'chain', domain: name, type });
  return (
    <Anchor component={Link} to={`/tools/dnskey?${params.toString()}`} size="sm">
      Chain of trust of {name} {type}
    </Anchor>
  );
}

/** What an empty answer means, and whether DNSSEC proves it (RFC 4035 §5.4, RFC 5155 §8). */
function absenceText(lookup: DaneLookup, type: string): string | null {
  if (lookup.answer !== 'nxdomain' && lookup.answer !== 'nodata') return null;
  const what =
    lookup.answer === 'nxdomain'
      ? `NXDOMAIN: ${lookup.name} does not exist`
      : `NODATA: ${lookup.name} has no ${type === 'A' ? 'A or AAAA' : type} records`;
  const proof =
    lookup.status === 'secure' && lookup.denial?.proven
      ? `secure denial, proven by signed ${lookup.denial.method} records`
      : lookup.status === 'insecure'
        ? 'not proven by DNSSEC: the zone is unsigned'
        : 'not proven by DNSSEC';
  return `${what} (${proof}).`;
}

function Lookup({
  title,
  type,
  lookup,
  showRecords = true,
}: {
  title: string;
  /** The record type asked ('A' stands for A and AAAA), for the chain-of-trust link and the NODATA wording. */
  type: string;
  lookup: DaneLookup;
  showRecords?: boolean;
}) {
  const { name, status, failure } = lookup;
  const lines = showRecords ? lookup.records : [];
  const absence = absenceText(lookup, type);
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <StatusBadge style={dnssecStyles[status]} label={`${title} DNSSEC status`} />
        <ChainLink name={name} type={type} />
      </Group>
      {absence !== null && <Text size="sm">{absence}</Text>}
      {failure !== null && (
        <Text size="sm" c="dimmed">
          {failure}
        </Text>
      )}
      {lines.length > 0 && (
        <Text
          component="pre"
          size="xs"
          ff="monospace"
          m={0}
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {lines.join('\n')}
        </Text>
      )}
    </Stack>
  );
}

function recordStatus(record: DaneCheckRecord) {
  return record.matched
    ? recordStyles.matched
    : record.usable
      ? recordStyles.rejected
      : recordStyles.unusable;
}

function RecordTable({ records }: { records: readonly DaneCheckRecord[] }) {
  return (
    <DataTable
      label="TLSA records"
      minWidth={560}
      rows={records}
      rowKey={(record, index) => `${record.record}-${index}`}
      columns={[
        {
          header: 'Record',
          rowHeader: true,
          cell: (record) => (
            <Stack gap={2}>
              <Text size="sm" ff="monospace">
                {record.usage} {record.selector} {record.matchingType}
              </Text>
              <Text size="xs" c="dimmed">
                {record.parameters}
              </Text>
            </Stack>
          ),
        },
        {
          header: 'Result',
          cell: (record) => <StatusBadge style={recordStatus(record)} label="Record" />,
        },
        {
          header: 'Why',
          cell: (record) => (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {record.matched
                ? record.anchorOutsideChain === true
                  ? 'Matches the trust anchor above the chain: its key signed the top certificate the server sent, so the server need not send it (RFC 7671 §5.2.2).'
                  : `Matches ${record.certificate === 0 ? 'the server certificate' : `certificate ${(record.certificate ?? 0) + 1} of the chain`}.`
                : (record.unusableReason ??
                  record.problem ??
                  'The data matches no certificate of the chain.')}
            </Text>
          ),
        },
      ]}
    />
  );
}

/** `smtp`: MX hosts of a mail domain, where RFC 7672 applies. */
function EndpointView({ endpoint, smtp }: { endpoint: DaneEndpoint; smtp: boolean }) {
  const matched = endpoint.records.flatMap((record) =>
    record.matched && record.certificate !== null ? [record.certificate] : [],
  );
  const name = `${endpoint.host}:${endpoint.port}`;
  return (
    <Stack gap="sm" component="section" aria-label={name}>
      <Group gap="xs" wrap="wrap">
        <Title order={4} style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Title>
        <StatusBadge style={verdictStyles[endpoint.verdict]} label={`${name} verdict`} />
      </Group>
      <DiagnosticList diagnostics={endpoint.reasons} variant="list" label={`Why, for ${name}`} />
      <Lookup title="Addresses" type="A" lookup={endpoint.addresses} />
      {endpoint.tlsa === null ? (
        <Text size="sm" c="dimmed">
          TLSA not looked up: without an address there is nothing to connect to.
        </Text>
      ) : (
        <Lookup
          title={`TLSA at ${endpoint.tlsa.owner || endpoint.tlsa.name}`}
          type="TLSA"
          lookup={endpoint.tlsa}
          showRecords={false}
        />
      )}
      {endpoint.tlsa !== null && endpoint.tlsa.tried.length > 1 && (
        <Text size="sm" c="dimmed">
          Asked in order: {endpoint.tlsa.tried.join(', ')} (RFC 7672 §2.2.2).
        </Text>
      )}
      {endpoint.records.length > 0 && <RecordTable records={endpoint.records} />}
      {endpoint.tls.status === 'ok' && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Certificate chain presented
            {endpoint.tls.starttls ? ` after STARTTLS (${endpoint.tls.starttls})` : ''}
          </Text>
          <ChainList certificates={endpoint.tls.certificates} matched={matched} />
          <Text size="xs" c="dimmed">
            {smtp
              ? // usages 0 and 1 are unusable between MTAs (RFC 7672 §3.1.3): public CA trust decides nothing
                `Names checked for usage 2: ${endpoint.referenceNames.join(', ')}. Usages 0 and 1 are not used for SMTP (RFC 7672 §3.1.3).`
              : `Names checked for usages 0-2: ${endpoint.referenceNames.join(', ')}. Public CA trust (usages 0 and 1): ${endpoint.tls.pkixTrusted ? 'yes' : 'no'}.`}
          </Text>
        </Stack>
      )}
      {endpoint.tls.status === 'failed' && (
        <Text size="sm">
          TLS failed ({endpoint.tls.code}): {endpoint.tls.message}
        </Text>
      )}
      {endpoint.rollover && (
        <Stack gap={2} component="section" aria-label={`Rollover readiness of ${name}`}>
          <Text size="sm" fw={600}>
            Rollover: {endpoint.rollover.ready ? 'ready' : 'not ready'} ({endpoint.rollover.rfc})
          </Text>
          <Text size="sm">{endpoint.rollover.message}.</Text>
          {endpoint.rollover.fix && (
            <Text size="sm" c="dimmed">
              Fix: {endpoint.rollover.fix}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** The live check: the verdict, the MX set (SMTP), then per server its DNS, TLSA records, chain and fixes. */
export function LiveCheckView({ result }: { result: DaneCheckResult }) {
  return (
    <Stack gap="lg">
      <Group gap="xs" wrap="wrap">
        <StatusBadge style={verdictStyles[result.verdict]} label="Verdict" />
        <Text size="sm">{result.summary}</Text>
      </Group>
      <DiagnosticList diagnostics={result.reasons} variant="list" label={`About ${result.host}`} />
      {result.mx && (
        <ResultSection title="MX hosts">
          <Lookup
            title={result.mx.implicit ? 'No MX: the domain itself receives mail' : 'MX records'}
            type="MX"
            lookup={result.mx}
            showRecords={false}
          />
          {result.mx.hosts.length > 0 && (
            <List size="sm" aria-label="MX hosts by preference">
              {result.mx.hosts.map((host) => (
                <List.Item key={host.host}>
                  {host.preference} {host.host}
                </List.Item>
              ))}
            </List>
          )}
        </ResultSection>
      )}
      {result.endpoints.map((endpoint) => (
        <EndpointView
          key={`${endpoint.host}:${endpoint.port}`}
          endpoint={endpoint}
          smtp={result.protocol === 'smtp'}
        />
      ))}
    </Stack>
  );
}
