import { Code, Group, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { DnskeyParsed, DnskeyValidationResultData, DsRecord } from '@rfckit/standards';

import { FieldRow } from '../../components/data-table.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import { RequirementBadge } from '../../components/requirement-badge.tsx';
import { statusBadge } from './implementation-status.ts';

const keyTypeText = {
  KSK: 'KSK (key-signing key): Zone Key and Secure Entry Point bits set',
  ZSK: 'ZSK (zone-signing key): Zone Key bit set',
  'Non-zone key': 'Not a zone key: the Zone Key bit is clear, so resolvers will not use it for DNSSEC',
} as const;

function FlagBits({ parsed }: { parsed: DnskeyParsed }) {
  const bits = [
    { name: 'Zone Key', where: 'bit 7, value 256', set: parsed.flagBits.zoneKey, rfc: 'RFC 4034 §2.1.1' },
    { name: 'Revoke', where: 'bit 8, value 128', set: parsed.flagBits.revoked, rfc: 'RFC 5011 §7' },
    {
      name: 'Secure Entry Point',
      where: 'bit 15, value 1',
      set: parsed.flagBits.secureEntryPoint,
      rfc: 'RFC 4034 §2.1.1',
    },
  ];
  return (
    <>
      <Text size="sm" ff="monospace">
        {parsed.flags}
      </Text>
      <List size="sm" spacing={2} mt={4}>
        {bits.map((bit) => (
          <List.Item key={bit.name}>
            {bit.name} ({bit.where}): <strong>{bit.set ? 'set' : 'not set'}</strong>{' '}
            <Text span size="xs" c="dimmed">
              {bit.rfc}
            </Text>
          </List.Item>
        ))}
      </List>
    </>
  );
}

function AlgorithmCell({ parsed }: { parsed: DnskeyParsed }) {
  const { signing, validation, rfc } = parsed.algorithmStatus;
  return (
    <Stack gap={6}>
      <Text size="sm">
        <Text span ff="monospace">
          {parsed.algorithm}
        </Text>{' '}
        {parsed.algorithmName}
      </Text>
      <Group gap="xs">
        <Text size="xs">Zone signing:</Text>
        {signing ? (
          <RequirementBadge {...statusBadge(signing)} size="xs" />
        ) : (
          <Text size="xs">no level set</Text>
        )}
        <Text size="xs">Validation:</Text>
        {validation ? (
          <RequirementBadge {...statusBadge(validation)} size="xs" />
        ) : (
          <Text size="xs">no level set</Text>
        )}
        <Text size="xs" c="dimmed">
          {rfc}
        </Text>
      </Group>
    </Stack>
  );
}

function ParsedTable({ parsed }: { parsed: DnskeyParsed }) {
  return (
    // two columns wrap well on narrow screens; no horizontal scrolling needed
    <Table
      withTableBorder
      verticalSpacing="xs"
      aria-label="DNSKEY fields"
      style={{ overflowWrap: 'anywhere' }}
    >
      <Table.Tbody>
        <FieldRow labelWidth={180} label="Owner name">
          {parsed.ownerName ?? 'Not given'}
        </FieldRow>
        <FieldRow labelWidth={180} label="TTL">
          {parsed.ttl === null ? 'Not given' : `${parsed.ttl} seconds`}
        </FieldRow>
        <FieldRow labelWidth={180} label="Key type" testId="dnskey-key-type">
          {keyTypeText[parsed.keyType]}
        </FieldRow>
        <FieldRow labelWidth={180} label="Flags">
          <FlagBits parsed={parsed} />
        </FieldRow>
        <FieldRow labelWidth={180} label="Protocol">
          <Text size="sm" ff="monospace" span>
            {parsed.protocol}
          </Text>{' '}
          <Text size="sm" span>
            {parsed.protocol === 3 ? '(DNSSEC, the only valid value)' : '(must be 3)'}
          </Text>
        </FieldRow>
        <FieldRow labelWidth={180} label="Algorithm">
          <AlgorithmCell parsed={parsed} />
        </FieldRow>
        <FieldRow labelWidth={180} label="Key tag" testId="dnskey-key-tag">
          <Text size="sm" ff="monospace" span>
            {parsed.keyTag}
          </Text>
        </FieldRow>
        <FieldRow labelWidth={180} label="Key size">
          {parsed.keySize === null ? 'Unknown' : `${parsed.keySize} bits`}
        </FieldRow>
        <FieldRow labelWidth={180} label="Public key">{`${parsed.publicKeyBytes} bytes`}</FieldRow>
      </Table.Tbody>
    </Table>
  );
}

function DsRecords({ parsed }: { parsed: DnskeyParsed }) {
  if (parsed.ds.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label="DS records">
      <Title order={4}>DS records for the parent zone</Title>
      <Text size="sm">
        Publish the <strong>SHA-256</strong> DS record (digest type 2) with your registrar or in the parent
        zone: RFC 8624 §3.3 says SHA-256 MUST be used for delegations and SHA-1 MUST NOT. SHA-384 MAY be
        added.
        {parsed.keyType === 'ZSK' && ' DS records normally point to the KSK (flags 257), not to a ZSK.'}
      </Text>
      {parsed.ds.map((ds: DsRecord) => (
        <Paper key={ds.digestType} withBorder p="sm" data-digest-type={ds.digestType}>
          <Group justify="space-between" gap="xs" mb={6}>
            <Group gap="xs">
              <Text size="sm" fw={600}>
                {ds.digestName} (digest type {ds.digestType})
              </Text>
              <RequirementBadge level={ds.requirement} size="xs" />
              <Text size="xs" c="dimmed">
                {ds.rfc}
              </Text>
            </Group>
            <CopyButton value={ds.record} label="Copy" ariaLabel={`Copy ${ds.digestName} DS record`} />
          </Group>
          <Code block className="mono-block">
            {ds.record}
          </Code>
        </Paper>
      ))}
    </Stack>
  );
}

export function ValidationResultView({ result }: { result: DnskeyValidationResultData }) {
  const counts = `${result.errors.length} ${result.errors.length === 1 ? 'error' : 'errors'}, ${result.warnings.length} ${result.warnings.length === 1 ? 'warning' : 'warnings'}`;
  return (
    <Stack gap="lg">
      <Text size="sm">{counts}</Text>
      <DiagnosticList diagnostics={result.diagnostics} variant="section" heading={4} />
      {result.parsed && (
        <Stack gap="xs" component="section" aria-label="Record fields">
          <Title order={4}>Record fields</Title>
          <ParsedTable parsed={result.parsed} />
        </Stack>
      )}
      {result.parsed && <DsRecords parsed={result.parsed} />}
    </Stack>
  );
}
