import { Alert, Badge, Code, List, Stack, Table, Text, Title } from '@mantine/core';
import type { ArcSetResult, ArcSignatureResult, ArcValidateResult } from '@rfckit/standards';

import { DataTable, FieldRow } from '../../components/data-table.tsx';
import { DiagnosticList } from '../../components/diagnostic-list.tsx';
import type { BadgeMeaning } from '../../components/rfc-legend.tsx';

// background and text pairs with at least 4.5:1 contrast in both themes (as the requirement badges)
const resultStyle: Record<ArcSignatureResult, { color: string; text: string; meaning: string }> = {
  pass: { color: 'teal.9', text: 'white', meaning: 'The signature or seal verifies with the key in DNS.' },
  fail: {
    color: 'red.9',
    text: 'white',
    meaning: 'It does not verify: the message or the header changed, or the key does not match.',
  },
  neutral: { color: 'gray.7', text: 'white', meaning: 'It could not be judged either way.' },
  temperror: { color: 'orange.6', text: 'black', meaning: 'The key lookup failed for now; try again later.' },
  permerror: {
    color: 'red.9',
    text: 'white',
    meaning: 'It is malformed or its key is unusable: it can never verify.',
  },
  none: {
    color: 'gray.7',
    text: 'white',
    meaning: 'There was no earlier ARC chain to check, as for the first set (cv=none).',
  },
};

/** Every result badge of the chain's checks, for the Requirement levels popover. */
export const arcResultBadges: readonly BadgeMeaning[] = (
  Object.keys(resultStyle) as ArcSignatureResult[]
).map((result) => ({
  label: result,
  meaning: resultStyle[result].meaning,
  color: resultStyle[result].color,
  textColor: resultStyle[result].text,
}));

function ResultBadge({ result }: { result: ArcSignatureResult }) {
  const style = resultStyle[result];
  return (
    <Badge color={style.color} c={style.text} variant="filled" radius="sm" data-result={result}>
      {result}
    </Badge>
  );
}

/** A check's verdict with its reason under it, when it has one. */
function Check({ result, reason }: { result: ArcSignatureResult; reason: string | null }) {
  return (
    <Stack gap={2} align="flex-start">
      <ResultBadge result={result} />
      {reason && <Text size="xs">{reason}</Text>}
    </Stack>
  );
}

function keyBits(set: ArcSetResult): string {
  const seal = set.seal.keyBits;
  const ams = set.messageSignature.keyBits;
  if (seal === null && ams === null) return '—';
  if (seal === ams || ams === null) return `${seal}`;
  if (seal === null) return `${ams}`;
  return `seal ${seal}, AMS ${ams}`;
}

function bodyHash(matches: boolean | null): string {
  if (matches === null) return 'not checked';
  return matches ? 'matches' : 'does not match';
}

const wrapped = { ff: 'monospace', style: { overflowWrap: 'anywhere' } };

/** A card label naming a tag: tag names are case-sensitive, so the tag keeps its case in the uppercase label. */
function tagLabel(name: string, tag: string) {
  return (
    <>
      {name}{' '}
      <Text span inherit tt="none" ff="monospace">
        {tag}
      </Text>
    </>
  );
}

function SetsTable({ sets }: { sets: readonly ArcSetResult[] }) {
  return (
    <DataTable
      label="ARC sets"
      minWidth={900}
      caption="ARC sets, by instance"
      fz="sm"
      verticalSpacing="xs"
      rows={sets}
      rowKey={(set) => set.instance}
      rowProps={(set) => ({ 'data-instance': set.instance })}
      columns={[
        { header: 'i=', cardLabel: tagLabel('Instance', 'i='), rowHeader: true, cell: (set) => set.instance },
        {
          header: 'd=',
          cardLabel: tagLabel('Domain', 'd='),
          cell: (set) => set.domain ?? '—',
          cellProps: wrapped,
        },
        {
          header: 's=',
          cardLabel: tagLabel('Selector', 's='),
          cell: (set) => set.selector ?? '—',
          cellProps: wrapped,
        },
        {
          header: 'cv=',
          cardLabel: tagLabel('Chain status', 'cv='),
          cell: (set) => set.cv ?? '—',
          cellProps: { ff: 'monospace' },
        },
        { header: 'ARC-Seal', cell: (set) => <Check result={set.seal.result} reason={set.seal.reason} /> },
        {
          header: 'ARC-Message-Signature',
          cell: (set) => <Check result={set.messageSignature.result} reason={set.messageSignature.reason} />,
        },
        { header: 'Body hash', cell: (set) => bodyHash(set.messageSignature.bodyHashMatches) },
        { header: 'Key bits', cell: keyBits },
        { header: 'Within domain', cell: (set) => (set.withinDomain ? 'yes' : 'no') },
      ]}
    />
  );
}

function RecordedResults({ sets }: { sets: readonly ArcSetResult[] }) {
  const recorded = sets.filter((set) => set.authenticationResults !== null);
  if (recorded.length === 0) return null;
  return (
    <Stack gap={4} component="section" aria-label="Recorded authentication results">
      <Title order={4} size="h5">
        Recorded authentication results (ARC-Authentication-Results)
      </Title>
      <Stack component="ul" gap={4} m={0} pl="md">
        {recorded.map((set) => (
          <Text component="li" size="sm" key={set.instance}>
            i={set.instance}
            {set.authenticationResults?.authservId ? ` by ${set.authenticationResults.authservId}` : ''}:{' '}
            <Code>{set.authenticationResults?.results.join('; ') || 'no results'}</Code>
          </Text>
        ))}
      </Stack>
    </Stack>
  );
}

/** The chain verdict with its reason, one row per ARC set, and every finding. */
export function ValidationResultView({ result }: { result: ArcValidateResult }) {
  const { chain } = result;
  return (
    <Stack gap="md">
      <Table withTableBorder fz="sm" aria-label="Chain verdict">
        <Table.Tbody>
          <FieldRow label="Chain validation">
            <ResultBadge result={chain.result} />
          </FieldRow>
          {chain.reason && <FieldRow label="Reason">{chain.reason}</FieldRow>}
          <FieldRow label="ARC sets">{chain.instances}</FieldRow>
          {chain.failedInstance !== null && (
            <FieldRow label="Broken at">instance {chain.failedInstance}</FieldRow>
          )}
          {chain.oldestPass !== null && (
            <FieldRow label="Oldest pass">
              {chain.oldestPass === 0
                ? 'every AMS verifies: unchanged since instance 1'
                : `instance ${chain.oldestPass}`}
            </FieldRow>
          )}
          <FieldRow label="Domain">
            <Text span ff="monospace" size="sm">
              {result.domain}
            </Text>
          </FieldRow>
        </Table.Tbody>
      </Table>
      {result.sets.length > 0 && <SetsTable sets={result.sets} />}
      <RecordedResults sets={result.sets} />
      {result.diagnostics.length > 0 ? (
        <DiagnosticList diagnostics={result.diagnostics} heading={4} />
      ) : (
        <>
          {result.errors.length > 0 && (
            <Alert color="red" variant="light" title="Errors">
              <List size="sm" spacing={4}>
                {result.errors.map((error) => (
                  <List.Item key={error}>{error}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          {result.warnings.length > 0 && (
            <Alert color="orange" variant="light" title="Warnings">
              <List size="sm" spacing={4}>
                {result.warnings.map((warning) => (
                  <List.Item key={warning}>{warning}</List.Item>
                ))}
              </List>
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}
