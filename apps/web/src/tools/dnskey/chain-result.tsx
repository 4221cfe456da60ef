import { Alert, Box, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ChainAnswer, DnssecChain, SignatureView, ZoneStep } from '@rfckit/standards';

import { CopyButton } from '../../components/copy-button.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import {
  CardSection,
  DenialDetails,
  DsList,
  KeyList,
  SignatureList,
  expiryText,
  relativeToCheck,
  zoneLabel,
} from './chain-parts.tsx';
import { failureTitles, SecurityBadge, securityMeaning } from './chain-status.tsx';

const statusBorder = {
  secure: 'var(--mantine-color-green-filled)',
  insecure: 'var(--mantine-color-gray-filled)',
  bogus: 'var(--mantine-color-red-filled)',
  indeterminate: 'var(--mantine-color-orange-filled)',
} as const;

/** The result panel's title: the name, type and verdict. */
export function chainTitle(chain: DnssecChain): string {
  return `${chain.name} ${chain.type}: ${chain.status}`;
}

const checkTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});

function anchorsText({ origin, keyTags }: DnssecChain['trustAnchors']): string {
  if (origin === 'iana') return `IANA's root KSKs (${keyTags.join(', ')})`;
  return `the file set in DNSSEC_TRUST_ANCHORS (key ${keyTags.length === 1 ? 'tag' : 'tags'} ${keyTags.join(', ')})`;
}

/**
 * What an insecure verdict asks of the admin: the zone below the unsigned delegation, signed and
 * with its DS at the parent (RFC 4035 §4.3, §5.2); re-signed where only its algorithm is unsupported.
 */
function insecureFix(chain: DnssecChain): { zone: string; fix: string } | null {
  if (chain.status !== 'insecure') return null;
  const step = chain.zones.find((zone) => zone.status === 'insecure');
  const zone = step?.zone ?? chain.answer.zone;
  if (zone === null) return null;
  const fix =
    step !== undefined && step.ds.length > 0
      ? `To protect its answers, re-sign ${zone} with an algorithm validators support, ECDSAP256SHA256 (13) or ED25519 (15), and publish its new DS at the parent (through the registrar).`
      : `To protect its answers, sign ${zone} and publish its DS at the parent (through the registrar).`;
  return { zone, fix };
}

function Verdict({ chain }: { chain: DnssecChain }) {
  const { failure } = chain;
  const unsigned = insecureFix(chain);
  return (
    <Stack gap="xs" data-testid="chain-verdict">
      <Group gap="xs" wrap="wrap">
        <SecurityBadge status={chain.status} label="Verdict" />
        <Text size="sm">{securityMeaning(chain.status)}</Text>
      </Group>
      {failure !== null && (
        <Alert
          color={chain.status === 'bogus' ? 'red' : 'orange'}
          variant="light"
          title={`At ${zoneLabel(failure.zone)}: ${failureTitles[failure.code]}`}
          data-failure={failure.code}
        >
          <Stack gap={4}>
            <Text size="sm">{failure.message}</Text>
            {failure.fix !== undefined && (
              <Text size="sm">
                <Text span fw={600}>
                  Fix:
                </Text>{' '}
                {failure.fix}
              </Text>
            )}
            {failure.rfc !== undefined && (
              <Text size="xs" c="dimmed">
                {failure.rfc}
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {unsigned !== null && (
        <Alert color="gray" variant="light" title={`At ${zoneLabel(unsigned.zone)}: the zone is not signed`}>
          <Stack gap={4}>
            <Text size="sm">
              Validating resolvers accept {chain.name}'s answers without checking them, so they can be forged
              on the way.
            </Text>
            <Text size="sm">
              <Text span fw={600}>
                Fix:
              </Text>{' '}
              {unsigned.fix}
            </Text>
            <Text size="xs" c="dimmed">
              RFC 4035 §4.3; RFC 4035 §5.2
            </Text>
          </Stack>
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        Trust anchors: {anchorsText(chain.trustAnchors)}. Checked{' '}
        <time dateTime={chain.checkedAt}>{checkTime.format(new Date(chain.checkedAt))} UTC</time> with{' '}
        {chain.queries} DNS queries.
      </Text>
    </Stack>
  );
}

/** The link between a parent and its child: the DS set that carries trust down, or its proven absence. */
function Connector({ parent, child }: { parent: string; child: ZoneStep }) {
  const text =
    child.dsDenial !== null
      ? `${zoneLabel(parent)} proves ${child.zone} has no DS`
      : `${zoneLabel(parent)} vouches for ${child.zone} with ${child.ds.length} DS`;
  return (
    <Group gap="xs" wrap="nowrap" pl="md" aria-hidden="true" data-connector>
      <Box
        style={{
          width: 2,
          alignSelf: 'stretch',
          minHeight: 28,
          background: statusBorder[child.status],
        }}
      />
      <Text size="xs" c="dimmed">
        ↓ {text}
      </Text>
    </Group>
  );
}

function ZoneCard({ step, checkedAt }: { step: ZoneStep; checkedAt: string }) {
  const root = step.zone === '.';
  return (
    <Paper
      withBorder
      p="md"
      style={{ borderInlineStart: `4px solid ${statusBorder[step.status]}` }}
      data-zone={step.zone}
      data-status={step.status}
    >
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Title order={5} style={{ overflowWrap: 'anywhere' }}>
            {zoneLabel(step.zone)}
          </Title>
          <SecurityBadge status={step.status} label={`Zone ${zoneLabel(step.zone)}`} />
        </Group>
        {step.failure !== null && (
          <Alert color={step.status === 'bogus' ? 'red' : 'orange'} variant="light" p="xs">
            <Text size="sm">{step.failure.message}</Text>
            {step.failure.fix !== undefined && (
              <Text size="sm">
                <Text span fw={600}>
                  Fix:
                </Text>{' '}
                {step.failure.fix}
              </Text>
            )}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Stack gap="sm">
            <CardSection title={root ? 'Trust anchors' : 'DS records in the parent'}>
              <DsList records={step.ds} zone={step.zone} />
            </CardSection>
            {step.dsSignatures.length > 0 && (
              <CardSection title="Signatures over the DS set">
                <SignatureList signatures={step.dsSignatures} checkedAt={checkedAt} />
              </CardSection>
            )}
            {step.dsDenial !== null && (
              <CardSection title="Proof of no DS">
                <DenialDetails denial={step.dsDenial} />
              </CardSection>
            )}
          </Stack>
          <Stack gap="sm">
            <CardSection title="DNSKEY records">
              <KeyList keys={step.keys} zone={step.zone} />
            </CardSection>
            <CardSection title="Signatures over the DNSKEY set">
              <SignatureList signatures={step.keySetSignatures} checkedAt={checkedAt} />
            </CardSection>
          </Stack>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function answerStatusText(answer: ChainAnswer): string {
  switch (answer.status) {
    case 'ok':
      return answer.records.length === 1 ? 'One record' : `${answer.records.length} records`;
    case 'nxdomain':
      return 'The name does not exist (NXDOMAIN)';
    case 'nodata':
      return 'The name has no records of this type (NODATA)';
    case 'failed':
      return answer.security === 'bogus'
        ? 'Not validated: the chain of trust breaks above, so no answer for this name can be trusted'
        : 'Not validated: a DNS answer the chain needs did not come';
  }
}

function AnswerCard({ answer, checkedAt }: { answer: ChainAnswer; checkedAt: string }) {
  const records = answer.records.join('\n');
  return (
    <Paper
      withBorder
      p="md"
      style={{ borderInlineStart: `4px solid ${statusBorder[answer.security]}` }}
      data-answer={answer.status}
    >
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Title order={5} style={{ overflowWrap: 'anywhere' }}>
            Answer: {answer.owner} {answer.type}
          </Title>
          <SecurityBadge status={answer.security} label="Answer" />
        </Group>
        <Text size="sm">
          {answerStatusText(answer)}
          {answer.wildcard !== null ? `, expanded from the wildcard ${answer.wildcard}` : ''}.
        </Text>
        {answer.records.length > 0 && (
          <Stack gap={4}>
            <Code block className="mono-block">
              {records}
            </Code>
            <Group>
              <CopyButton value={records} label="Copy records" />
            </Group>
          </Stack>
        )}
        {answer.signatures.length > 0 && (
          <CardSection title="Signatures over the answer">
            <SignatureList signatures={answer.signatures} checkedAt={checkedAt} />
          </CardSection>
        )}
        {answer.denial !== null && (
          <CardSection title="Proof of non-existence">
            <DenialDetails denial={answer.denial} />
          </CardSection>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The signatures each RRset of the chain rests on: over a DNSKEY set only those by a key a DS or
 * trust anchor vouches for (RFC 4035 §5.2), over a DS set and the answer all of them.
 */
function reliedSignatureSets(chain: DnssecChain): SignatureView[][] {
  const sets = chain.zones.flatMap((zone) => [
    zone.keySetSignatures.filter((signature) =>
      zone.keys.some(
        (key) => key.matchedByDs && key.keyTag === signature.keyTag && key.algorithm === signature.algorithm,
      ),
    ),
    zone.dsSignatures,
  ]);
  const answerSets = Map.groupBy(chain.answer.signatures, (signature) => signature.typeCovered);
  return [...sets, ...answerSets.values()].filter((set) => set.length > 0);
}

/**
 * The summary line on signature time: the first signature the chain breaks on because it expired
 * or has not started, else (for a chain that holds) when the first set loses its last valid signature.
 */
function lapseSummary(chain: DnssecChain): string | undefined {
  const sets = reliedSignatureSets(chain);
  for (const set of sets) {
    if (set.some((signature) => signature.outcome === 'valid')) continue;
    const timed = set.find(
      (signature) => signature.outcome === 'expired' || signature.outcome === 'not-yet-valid',
    );
    if (timed === undefined) continue;
    const which = `The RRSIG ${timed.typeCovered} by key ${timed.keyTag} of ${zoneLabel(timed.signer)}`;
    return timed.outcome === 'expired'
      ? `${which} ${expiryText(timed.expiration, chain.checkedAt)}.`
      : `${which} is not valid yet: it starts ${relativeToCheck(timed.inception, chain.checkedAt)}.`;
  }
  // past a break nothing is trusted, so no lapse ahead matters
  if (chain.status === 'bogus' || chain.status === 'indeterminate') return undefined;
  const lapses = sets.flatMap((set) => {
    const valid = set.filter((signature) => signature.outcome === 'valid').map((s) => s.expiration);
    // a set stays valid until its last valid signature lapses
    return valid.length > 0 ? [valid.sort().at(-1)!] : [];
  });
  const first = lapses.sort()[0];
  return first === undefined ? undefined : `First signature to lapse ${expiryText(first, chain.checkedAt)}.`;
}

/** What links the answer to the zone above it: the zone that signs it, or why nothing does. */
function answerLink(answer: ChainAnswer): string {
  if (answer.security === 'insecure') return 'unsigned (insecure delegation)';
  if (answer.zone === null || answer.status === 'failed') return 'not validated';
  return `signed by ${zoneLabel(answer.zone)}`;
}

/** The chain of trust: the verdict, the warnings, each zone from the root down, then the answer. */
export function ChainResultView({ chain }: { chain: DnssecChain }) {
  const lapse = lapseSummary(chain);
  return (
    <Stack gap="lg">
      <Verdict chain={chain} />
      <DiagnosticList diagnostics={chain.warnings} variant="section" label="Warnings" heading={4} />
      <Stack gap={0} component="section" aria-label="Chain of trust">
        <Title order={4} mb="xs">
          Chain of trust, root first
        </Title>
        {lapse !== undefined && (
          <Text size="xs" c="dimmed" mb="xs">
            {lapse}
          </Text>
        )}
        <Box component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
          {chain.zones.map((step, index) => (
            <li key={step.zone}>
              {index > 0 && <Connector parent={chain.zones[index - 1]!.zone} child={step} />}
              <ZoneCard step={step} checkedAt={chain.checkedAt} />
            </li>
          ))}
          <li>
            {chain.zones.length > 0 && (
              <Group gap="xs" wrap="nowrap" pl="md" aria-hidden="true" data-connector>
                <Box style={{ width: 2, minHeight: 28, background: statusBorder[chain.answer.security] }} />
                <Text size="xs" c="dimmed">
                  ↓ {answerLink(chain.answer)}
                </Text>
              </Group>
            )}
            <AnswerCard answer={chain.answer} checkedAt={chain.checkedAt} />
          </li>
        </Box>
      </Stack>
    </Stack>
  );
}
