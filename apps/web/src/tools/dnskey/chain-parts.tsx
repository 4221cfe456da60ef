import { Badge, Box, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import type { DenialView, DsView, KeyView, SignatureView } from '@rfckit/standards';
import type { ReactNode } from 'react';

import { CopyButton } from '../../components/copy-button.tsx';
import { DsStatusBadge, ProofBadge, SignatureOutcomeBadge } from './chain-status.tsx';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** "in 12 days" / "3 hours ago" / "yesterday", counted from when the chain was checked. */
export function relativeToCheck(when: string, checkedAt: string): string {
  const left = Date.parse(when) - Date.parse(checkedAt);
  return Math.abs(left) >= DAY
    ? relative.format(Math.trunc(left / DAY), 'day')
    : relative.format(Math.trunc(left / HOUR), 'hour');
}

/** "expires in 12 days" / "expired 3 hours ago", counted from when the chain was checked. */
export function expiryText(expiration: string, checkedAt: string): string {
  const when = relativeToCheck(expiration, checkedAt);
  return Date.parse(expiration) >= Date.parse(checkedAt) ? `expires ${when}` : `expired ${when}`;
}

/** A zone name as people read it: the root spelled out. */
export function zoneLabel(zone: string): string {
  return zone === '.' || zone === '' ? '. (root)' : zone;
}

/** A record's presentation line, shown on demand, with a copy button. */
function RecordLine({ record, name }: { record: string; name: string }) {
  return (
    <Box component="details" mt={4}>
      <Text component="summary" size="xs" c="dimmed" style={{ cursor: 'pointer' }}>
        Record
      </Text>
      <Stack gap={4} mt={4}>
        <Code block className="mono-block">
          {record}
        </Code>
        <Group>
          <CopyButton value={record} label="Copy" ariaLabel={`Copy ${name}`} />
        </Group>
      </Stack>
    </Box>
  );
}

/** A small titled list inside a zone card. */
export function CardSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-label={title}>
      <Title order={6}>{title}</Title>
      {children}
    </Stack>
  );
}

const itemStyle = {
  listStyle: 'none',
  borderInlineStart: '3px solid var(--mantine-color-default-border)',
  paddingInlineStart: 'var(--mantine-spacing-xs)',
} as const;

export function DsList({ records, zone }: { records: readonly DsView[]; zone: string }) {
  if (records.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No DS records.
      </Text>
    );
  return (
    <Stack component="ul" gap="xs" m={0} p={0}>
      {records.map((ds) => (
        <li key={ds.record} style={itemStyle} data-ds-status={ds.status}>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              DS {ds.keyTag}
            </Text>
            <DsStatusBadge status={ds.status} />
          </Group>
          <Text size="xs" c="dimmed">
            algorithm {ds.algorithm}, digest {ds.digestType} ({ds.digestName}),{' '}
            {ds.source === 'trust-anchor' ? 'configured trust anchor' : 'from the parent zone'}
            {ds.status === 'match' ? `: points at key ${ds.keyTag}` : ''}
          </Text>
          {ds.expectedDigest !== null && (
            <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
              Key {ds.keyTag} has the {ds.digestName} digest {ds.expectedDigest}; the DS says {ds.digest}.
            </Text>
          )}
          <RecordLine record={ds.record} name={`DS ${ds.keyTag} of ${zoneLabel(zone)}`} />
        </li>
      ))}
    </Stack>
  );
}

/**
 * What a key does in the chain. In a zone no DS vouches for, its own signatures are still checked,
 * so the admin sees the zone is signed right and only the link from the parent is broken.
 */
function keyFacts(key: KeyView, zoneVouched: boolean, voucher: string): string[] {
  const facts: string[] = [];
  if (key.matchedByDs) facts.push(`matched by DS ${key.keyTag}`);
  if (key.signsKeySet)
    facts.push(
      zoneVouched ? 'signs the DNSKEY set' : `signs the DNSKEY set, but no ${voucher} vouches for it`,
    );
  if (key.signs.length > 0) facts.push(`signs ${key.signs.join(', ')}`);
  if (facts.length === 0)
    facts.push(
      zoneVouched
        ? 'no signature by this key verified'
        : 'its signatures below were not checked: the chain breaks here',
    );
  return facts;
}

export function KeyList({ keys, zone }: { keys: readonly KeyView[]; zone: string }) {
  const zoneVouched = keys.some((key) => key.matchedByDs);
  const voucher = zone === '.' ? 'trust anchor' : 'DS at the parent';
  if (keys.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No DNSKEY records.
      </Text>
    );
  return (
    <Stack component="ul" gap="xs" m={0} p={0}>
      {keys.map((key) => (
        <li key={key.record} style={itemStyle} data-key-tag={key.keyTag}>
          <Group gap="xs" wrap="wrap">
            <Badge component="span" variant="outline" color="gray" radius="sm" size="sm" tt="none">
              {key.role}
            </Badge>
            <Text size="sm" fw={600}>
              Key {key.keyTag}
            </Text>
            {key.revoked && (
              <Badge component="span" color="red.9" c="white" radius="sm" size="sm" tt="none">
                revoked
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            flags {key.flags}, algorithm {key.algorithm} {key.algorithmName}
            {key.keySize === null ? '' : `, ${key.keySize} bits`}
          </Text>
          <List size="xs" spacing={0} mt={2}>
            {keyFacts(key, zoneVouched, voucher).map((fact) => (
              <List.Item key={fact}>{fact}</List.Item>
            ))}
          </List>
          <RecordLine record={key.record} name={`key ${key.keyTag} of ${zoneLabel(zone)}`} />
        </li>
      ))}
    </Stack>
  );
}

export function SignatureList({
  signatures,
  checkedAt,
  empty = 'No signatures.',
}: {
  signatures: readonly SignatureView[];
  checkedAt: string;
  /** What to say when there are none. */
  empty?: string;
}) {
  if (signatures.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Stack component="ul" gap="xs" m={0} p={0}>
      {signatures.map((signature) => (
        <li
          key={`${signature.typeCovered}-${signature.keyTag}-${signature.algorithm}-${signature.expiration}`}
          style={itemStyle}
          data-outcome={signature.outcome}
        >
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              RRSIG {signature.typeCovered} by key {signature.keyTag}
            </Text>
            <SignatureOutcomeBadge outcome={signature.outcome} />
          </Group>
          <Text size="xs" c="dimmed">
            {signature.algorithmName}, signer {zoneLabel(signature.signer)},{' '}
            <time dateTime={signature.expiration} title={signature.expiration}>
              {expiryText(signature.expiration, checkedAt)}
            </time>
          </Text>
          {signature.outcome !== 'valid' && <Text size="sm">{signature.message}</Text>}
        </li>
      ))}
    </Stack>
  );
}

const provesText: Record<DenialView['proves'], string> = {
  nxdomain: 'the name does not exist',
  nodata: 'the name has no record of this type',
  'insecure-delegation': 'the delegation has no DS (an unsigned zone)',
  'no-closer-match': 'no closer name matched than the wildcard',
};

export function DenialDetails({ denial }: { denial: DenialView }) {
  return (
    <Stack gap={4} data-denial={denial.method}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {denial.method} proof that {provesText[denial.proves]}
        </Text>
        <ProofBadge proven={denial.proven} />
        {denial.optOut && (
          <Badge component="span" variant="outline" color="gray" radius="sm" size="sm" tt="none">
            opt-out
          </Badge>
        )}
      </Group>
      <Text size="sm">{denial.message}</Text>
      <Text size="xs" c="dimmed">
        {denial.closestEncloser === null ? '' : `Closest encloser: ${zoneLabel(denial.closestEncloser)}. `}
        {denial.iterations === null
          ? ''
          : `NSEC3 iterations ${denial.iterations}, salt ${denial.salt === null || denial.salt === '' ? 'none' : denial.salt}.`}
      </Text>
      {denial.records.length > 0 && (
        <Code block className="mono-block">
          {denial.records.join('\n')}
        </Code>
      )}
    </Stack>
  );
}
