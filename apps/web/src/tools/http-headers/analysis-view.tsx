import { Badge, Code, Group, List, Paper, Stack, Table, Text } from '@mantine/core';
import type { Diagnostic, HeaderRecommendation, HeaderTest, HttpHeadersAnalysis } from '@rfckit/standards';

import { CopyButton } from '../../components/copy-button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { ResultSection } from '../../components/result-section.tsx';
import type { BadgeMeaning } from '../../components/rfc-legend.tsx';
import { passGreen, scoreBand } from '../../components/score-band.ts';

const severityStyle = {
  HIGH: { colour: 'red.9', text: 'white' },
  MEDIUM: { colour: 'orange.4', text: 'black' },
  LOW: { colour: 'blue.8', text: 'white' },
} as const;

function ScoreSummary({ analysis }: { analysis: HttpHeadersAnalysis }) {
  const band = scoreBand(analysis.score);
  const { scoring } = analysis;
  const bonusText = scoring.bonusesApplied
    ? `+${scoring.bonuses} in bonuses, counted because the penalties leave ${100 + scoring.penalties} (at least ${scoring.minimumScoreForExtraCredit})`
    : scoring.bonuses > 0
      ? `+${scoring.bonuses} in bonuses not counted: they count only when the penalties leave ${scoring.minimumScoreForExtraCredit} or more`
      : 'no bonuses';
  return (
    <Stack gap="sm">
      <Group gap="lg" align="stretch">
        <Paper
          bg={band.colour}
          c={band.text}
          px="lg"
          py="sm"
          radius="md"
          data-testid="headers-score"
          data-band={band.word}
          aria-label={`Score ${analysis.score} out of 100, ${band.word}`}
        >
          <Text size="xs" fw={600} c="inherit">
            Score
          </Text>
          <Text fz={36} fw={700} lh={1.1} c="inherit">
            {analysis.score}
            <Text span fz="md" c="inherit">
              /100
            </Text>
          </Text>
        </Paper>
        <Paper
          withBorder
          px="lg"
          py="sm"
          radius="md"
          data-testid="headers-grade"
          aria-label={`Grade ${analysis.grade}`}
        >
          <Text size="xs" fw={600}>
            Grade
          </Text>
          <Text fz={36} fw={700} lh={1.1}>
            {analysis.grade}
          </Text>
        </Paper>
        <Stack gap={2} justify="center" style={{ flex: 1, minWidth: 220 }}>
          <Text size="sm">
            {scoring.testsPassed} of {scoring.testsEvaluated} tests passed
            {scoring.testsEvaluated < scoring.testsQuantity &&
              ` (${scoring.testsQuantity - scoring.testsEvaluated} not evaluated)`}
            .
          </Text>
          <Text size="sm">
            100 {scoring.penalties < 0 ? `− ${-scoring.penalties}` : '− 0'} in penalties, {bonusText}.
          </Text>
          <Text size="xs" c="dimmed">
            Scored with the {scoring.algorithm} table.
            {analysis.score > 100 &&
              ' Bonuses can take the score past 100; every score from 100 up is an A+.'}
          </Text>
        </Stack>
      </Group>
      {scoring.notes.length > 0 && (
        <List size="sm" spacing={4} aria-label="What the grade rests on">
          {scoring.notes.map((note) => (
            <List.Item key={note}>{note}</List.Item>
          ))}
        </List>
      )}
      {analysis.url && (
        <Text size="sm">
          Graded response: <Code>{analysis.url}</Code>
          {analysis.status !== null && ` (HTTP ${analysis.status})`}
        </Text>
      )}
    </Stack>
  );
}

function RedirectChain({ analysis }: { analysis: HttpHeadersAnalysis }) {
  if (analysis.redirects.length < 2) return null;
  return (
    <ResultSection title="Redirect chain">
      <List type="ordered" size="sm" spacing={4}>
        {analysis.redirects.map((hop, index) => (
          <List.Item key={`${index}-${hop.url ?? ''}`}>
            <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {hop.url ?? 'first request (URL not in the paste)'}
            </Text>{' '}
            {hop.status !== null && (
              <Badge variant="outline" size="sm" radius="sm">
                {hop.status}
              </Badge>
            )}
            {hop.location && (
              <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                {' '}
                → {hop.location}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </ResultSection>
  );
}

const testOutcomes = {
  notEvaluated: {
    label: 'Not evaluated',
    colour: 'gray.7',
    text: 'white',
    meaning: 'The test did not apply to this answer, so it counts for nothing.',
  },
  notSet: {
    label: 'Not set',
    colour: 'gray.2',
    text: 'black',
    meaning: 'An optional header is absent: it scores 0 points, neither a pass nor a fail.',
  },
  pass: { label: 'Pass', colour: passGreen, text: 'white', meaning: 'The header is set as the test asks.' },
  fail: {
    label: 'Fail',
    colour: 'red.9',
    text: 'white',
    meaning: 'The header is missing or weak: the score loses points. The test says how to fix it.',
  },
} as const;

type TestOutcome = (typeof testOutcomes)[keyof typeof testOutcomes];

/** Every outcome badge a graded test shows, for the Requirement levels popover. */
export const headerResultBadges: readonly BadgeMeaning[] = Object.values(testOutcomes).map((outcome) => ({
  label: outcome.label,
  meaning: outcome.meaning,
  color: outcome.colour,
  textColor: outcome.text,
}));

function outcomeOf(test: HeaderTest): TestOutcome {
  if (!test.evaluated) return testOutcomes.notEvaluated;
  // an optional header that is absent passes for 0 points in the Observatory: not a green success
  if (
    test.pass &&
    test.modifier === 0 &&
    test.result !== null &&
    /-not-(implemented|found)/.test(test.result)
  ) {
    return testOutcomes.notSet;
  }
  return test.pass ? testOutcomes.pass : testOutcomes.fail;
}

function modifierText(test: HeaderTest): string {
  if (!test.evaluated) return '—';
  if (test.modifier > 0) return `+${test.modifier}`;
  return test.modifier < 0 ? `−${-test.modifier}` : '0';
}

const top = { verticalAlign: 'top' } as const;

function TestsTable({ tests }: { tests: HeaderTest[] }) {
  return (
    <ResultSection title="Tests">
      <DataTable
        label="Observatory tests"
        minWidth={720}
        caption="The twelve tests of the MDN HTTP Observatory"
        verticalSpacing="xs"
        style={{ overflowWrap: 'anywhere' }}
        rows={tests}
        rowKey={(test) => test.name}
        rowProps={(test) => ({ 'data-test': test.name, 'data-result': test.result ?? 'not-evaluated' })}
        columns={[
          {
            header: 'Test',
            rowHeader: true,
            cell: (test) => test.title,
            cellProps: { fw: 500, w: 200, style: top },
          },
          {
            header: 'Outcome',
            cellProps: { w: 150, style: top },
            cell: (test) => {
              const outcome = outcomeOf(test);
              return (
                <Badge
                  color={outcome.colour}
                  c={outcome.text}
                  variant="filled"
                  radius="sm"
                  styles={{ label: { overflow: 'visible' } }}
                >
                  {outcome.label}
                </Badge>
              );
            },
          },
          { header: 'Points', cell: modifierText, cellProps: { ff: 'monospace', w: 70, style: top } },
          {
            header: 'Explanation',
            cellProps: { style: top },
            cell: (test) => (
              <>
                <Text size="sm">{test.explanation}</Text>
                {test.details.length > 0 && (
                  <List size="xs" spacing={2} mt={4}>
                    {test.details.map((detail) => (
                      <List.Item key={detail}>{detail}</List.Item>
                    ))}
                  </List>
                )}
                {test.result && (
                  <Text size="xs" c="dimmed" mt={4} ff="monospace">
                    {test.result}
                  </Text>
                )}
              </>
            ),
          },
        ]}
      />
    </ResultSection>
  );
}

function Recommendations({ recommendations }: { recommendations: HeaderRecommendation[] }) {
  if (recommendations.length === 0) {
    return (
      <ResultSection title="Recommendations">
        <Text size="sm">Nothing to change.</Text>
      </ResultSection>
    );
  }
  return (
    <ResultSection title="Recommendations">
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
        {recommendations.map((recommendation) => {
          const style = severityStyle[recommendation.severity];
          return (
            <Paper
              component="li"
              withBorder
              p="sm"
              key={`${recommendation.header}-${recommendation.description}`}
              data-severity={recommendation.severity}
            >
              <Group gap="xs" mb={4} justify="space-between">
                <Group gap="xs">
                  <Badge color={style.colour} c={style.text} variant="filled" radius="sm">
                    {recommendation.severity}
                  </Badge>
                  <Text size="sm" fw={600}>
                    {recommendation.header}
                  </Text>
                </Group>
                <CopyButton
                  value={recommendation.example}
                  label="Copy example"
                  ariaLabel={`Copy the ${recommendation.header} example`}
                />
              </Group>
              <Text size="sm">{recommendation.description}</Text>
              <Code
                block
                mt={6}
                className="mono-block"
                style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                {recommendation.example}
              </Code>
            </Paper>
          );
        })}
      </Stack>
    </ResultSection>
  );
}

function HeadersTable({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  return (
    <ResultSection title="Response headers">
      {entries.length === 0 ? (
        <Text size="sm">The response had no headers.</Text>
      ) : (
        <Table
          withTableBorder
          verticalSpacing={4}
          aria-label="Response headers"
          style={{ overflowWrap: 'anywhere' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w="30%">
                Name
              </Table.Th>
              <Table.Th scope="col">Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Th scope="row" fw={500} ff="monospace" fz="sm" style={{ verticalAlign: 'top' }}>
                  {name}
                </Table.Th>
                <Table.Td ff="monospace" fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {value}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </ResultSection>
  );
}

function PermissionsPolicy({ analysis }: { analysis: HttpHeadersAnalysis }) {
  const { permissionsPolicy } = analysis;
  return (
    <ResultSection title="Permissions-Policy (advice, not scored)">
      <Group gap="xs">
        <Badge
          variant="filled"
          radius="sm"
          color={
            permissionsPolicy.status === 'PASS'
              ? passGreen
              : permissionsPolicy.status === 'WARN'
                ? 'orange.4'
                : 'red.9'
          }
          c={permissionsPolicy.status === 'WARN' ? 'black' : 'white'}
        >
          {permissionsPolicy.status}
        </Badge>
        <Text size="sm">The MDN HTTP Observatory does not score this header.</Text>
      </Group>
      <List size="sm" spacing={2}>
        {permissionsPolicy.findings.map((finding) => (
          <List.Item key={finding}>
            <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
              {finding}
            </Text>
          </List.Item>
        ))}
      </List>
    </ResultSection>
  );
}

const diagnosticStyle = {
  error: { label: 'Error', colour: 'red.9', text: 'white' },
  warning: { label: 'Warning', colour: 'orange.4', text: 'black' },
  info: { label: 'Info', colour: 'blue.8', text: 'white' },
} as const;

function PasteDiagnostics({ diagnostics }: { diagnostics: Diagnostic[] }) {
  if (diagnostics.length === 0) return null;
  return (
    <ResultSection title="About the pasted text">
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
        {diagnostics.map((diagnostic) => {
          const style = diagnosticStyle[diagnostic.severity];
          return (
            <Group
              component="li"
              key={`${diagnostic.code}-${diagnostic.span?.start ?? ''}`}
              gap="xs"
              wrap="nowrap"
              align="flex-start"
            >
              <Badge
                color={style.colour}
                c={style.text}
                variant="filled"
                radius="sm"
                style={{ flexShrink: 0 }}
              >
                {style.label}
              </Badge>
              <Text size="sm">
                {diagnostic.message}
                {diagnostic.rfc && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    ({diagnostic.rfc})
                  </Text>
                )}
              </Text>
            </Group>
          );
        })}
      </Stack>
    </ResultSection>
  );
}

/** Everything a grading returns, for the Analyser and the Validator alike. */
export function AnalysisView({ analysis }: { analysis: HttpHeadersAnalysis }) {
  return (
    <Stack gap="lg">
      <ScoreSummary analysis={analysis} />
      <PasteDiagnostics diagnostics={analysis.diagnostics} />
      <RedirectChain analysis={analysis} />
      <TestsTable tests={analysis.tests} />
      <Recommendations recommendations={analysis.recommendations} />
      <PermissionsPolicy analysis={analysis} />
      <HeadersTable headers={analysis.headers} />
    </Stack>
  );
}
