import { Anchor, Code, Stack, Table, Text } from '@mantine/core';
import {
  gradeChart,
  minimumScoreForExtraCredit,
  observatoryAlgorithmVersion,
  scoreTable,
  testTitles,
  type ObservatoryTestName,
} from '@rfckit/standards';

import { DataTable } from '../../components/data-table.tsx';
import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';

const strictExample = [
  'Strict-Transport-Security: max-age=63072000; includeSubDomains; preload',
  "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options: nosniff',
  'Referrer-Policy: strict-origin-when-cross-origin',
  'Set-Cookie: __Host-session=<value>; Path=/; Secure; HttpOnly; SameSite=Lax',
  'Cross-Origin-Opener-Policy: same-origin',
  'Cross-Origin-Resource-Policy: same-origin',
  'Permissions-Policy: camera=(), microphone=(), geolocation=()',
].join('\n');

// which test each result id of the table belongs to, by its prefix
const testOfResult: [prefix: string, test: ObservatoryTestName][] = [
  ['csp-', 'content-security-policy'],
  ['cookies-', 'cookies'],
  ['cross-origin-resource-sharing-', 'cross-origin-resource-sharing'],
  ['redirection-', 'redirection'],
  ['referrer-policy-', 'referrer-policy'],
  ['hsts-', 'strict-transport-security'],
  ['sri-', 'subresource-integrity'],
  ['html-', 'subresource-integrity'],
  ['x-content-type-options-', 'x-content-type-options'],
  ['x-frame-options-', 'x-frame-options'],
  ['corp-', 'cross-origin-resource-policy'],
  ['coop-', 'cross-origin-opener-policy'],
  ['coep-', 'cross-origin-embedder-policy'],
];

function titleOfResult(expectation: string): string {
  const match = testOfResult.find(([prefix]) => expectation.startsWith(prefix));
  return match ? testTitles[match[1]] : '';
}

/** Grade chart rows: each grade with the scores that give it. */
function gradeRows(): { grade: string; from: number; to: number | null }[] {
  const steps = Object.entries(gradeChart)
    .map(([score, grade]) => ({ score: Number(score), grade }))
    .sort((a, b) => b.score - a.score);
  const rows: { grade: string; from: number; to: number | null }[] = [];
  for (const step of steps) {
    const last = rows.at(-1);
    if (last && last.grade === step.grade) last.from = step.score;
    else
      rows.push({
        grade: step.grade,
        from: step.score,
        to: rows.length === 0 ? null : (last?.from ?? 0) - 1,
      });
  }
  return rows;
}

function GradeChart() {
  return (
    <Table withTableBorder verticalSpacing={4} maw={360} aria-label="Grade chart">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Grade</Table.Th>
          <Table.Th scope="col">Score</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {gradeRows().map((row) => (
          <Table.Tr key={row.grade}>
            <Table.Th scope="row">{row.grade}</Table.Th>
            <Table.Td>{row.to === null ? `${row.from} and above` : `${row.from}–${row.to}`}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ScoreTable() {
  return (
    <DataTable
      label="Observatory score table"
      minWidth={720}
      caption="Every result of the twelve tests and the points it gives"
      striped
      verticalSpacing={4}
      fz="sm"
      rows={scoreTable}
      rowKey={(entry) => entry.expectation}
      columns={[
        { header: 'Test', cell: (entry) => titleOfResult(entry.expectation) },
        {
          header: 'Result',
          cell: (entry) => entry.expectation,
          rowHeader: true,
          cellProps: { fw: 400, ff: 'monospace', fz: 'xs' },
        },
        {
          header: 'Points',
          cell: (entry) => (
            <>
              {entry.modifier > 0 ? `+${entry.modifier}` : entry.modifier < 0 ? `−${-entry.modifier}` : '0'}
            </>
          ),
          cellProps: { ff: 'monospace' },
        },
        { header: 'Meaning', cell: (entry) => entry.description },
      ]}
    />
  );
}

export function InformationTab() {
  return (
    <Stack gap={36}>
      <PageSection title="What the analyser checks">
        <Text>
          Browsers enforce a site’s security policies from its response headers. The Analyser fetches a site
          over https and http, follows its redirects and grades the final response; the Validator grades
          headers you paste, without fetching anything. Both use the tests and scoring of the MDN HTTP
          Observatory, so the score and grade are the ones it would give.
        </Text>
        <GuidanceList>
          <GuidanceItem level="SHOULD" rfc="RFC 6797 §7.2">
            Answer plain http requests with a permanent redirect to https on the same host, then redirect to
            any other host. Strict-Transport-Security is only honoured over https, so a first hop to another
            host leaves the original host unprotected.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 6797 §6.1.1, §8.1">
            Strict-Transport-Security needs a max-age in seconds, and browsers ignore it when it arrives over
            http. The Observatory wants at least six months (15552000); the preload list wants 31536000 with
            includeSubDomains and preload.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="W3C Content Security Policy Level 3">
            Send a Content-Security-Policy that restricts script-src and object-src (directly or through
            default-src) without &apos;unsafe-inline&apos;, &apos;unsafe-eval&apos;, data: or broad sources
            such as https: or *. Nonces, hashes and &apos;strict-dynamic&apos; let inline scripts run safely.
          </GuidanceItem>
          <GuidanceItem level="SHOULD NOT" rfc="W3C Content Security Policy Level 3 §3.3">
            Do not rely on frame-ancestors, report-uri or sandbox in a &lt;meta&gt; policy: browsers ignore
            them there. Send them in the header.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 6265bis §4.1.3">
            A cookie named __Secure- must be Secure; a __Host- cookie must also have Path=/ and no Domain.
            Browsers refuse them otherwise.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 6265bis §8 (security considerations)">
            Mark every cookie Secure and session cookies HttpOnly, and set SameSite=Lax or Strict so that
            cross-site requests do not carry them.
          </GuidanceItem>
          <GuidanceItem level="SHOULD NOT" rfc="Fetch Standard §3.2 (CORS protocol)">
            Never copy an arbitrary request Origin into Access-Control-Allow-Origin together with
            Access-Control-Allow-Credentials: true; any site could then read responses with the visitor’s
            cookies.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="W3C Subresource Integrity">
            Give scripts loaded from other domains an integrity hash and load them over https.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 7034; CSP Level 3 frame-ancestors">
            Stop other sites from framing your pages: CSP frame-ancestors, or X-Frame-Options DENY or
            SAMEORIGIN for older browsers.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="Fetch Standard, X-Content-Type-Options">
            Send X-Content-Type-Options: nosniff so that browsers do not guess a script or style type.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="W3C Referrer Policy">
            Set Referrer-Policy to strict-origin-when-cross-origin, strict-origin, same-origin or no-referrer
            so that full URLs do not leak to other sites.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="Fetch Standard; HTML §7.1.3–7.1.4">
            Cross-Origin-Resource-Policy, Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy isolate
            the page from other origins; restrictive values earn bonus points.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="W3C Permissions Policy">
            Permissions-Policy denies powerful features (camera, microphone, location …) that the site does
            not use. It is advice here: the Observatory does not score it.
          </GuidanceItem>
        </GuidanceList>
        <Text size="sm">A strict configuration to start from:</Text>
        <Code block className="mono-block" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {strictExample}
        </Code>
      </PageSection>

      <PageSection title="How the score is computed">
        <Text>
          Every site starts at 100. Each of the twelve tests gives one result, and each result adds or removes
          the points in the table below. Penalties always count. Bonuses count only when the penalties leave a
          score of at least {minimumScoreForExtraCredit}, so a site cannot buy back a serious problem. A score
          below 0 is 0; bonuses can take it past 100, and every score from 100 up is an A+. The grade is read
          from the score rounded down to a multiple of 5. Responses with a status other than 2xx, 3xx, 401 or
          403 are not graded.
        </Text>
        <Text>
          Pasted headers cannot show what happens on http:// or, without the HTML body, which scripts a page
          loads. Those tests are marked as not evaluated and add nothing, as the Observatory does for a test
          without a result, and the grade says it rests on the tests evaluated.
        </Text>
        <GradeChart />
      </PageSection>

      <PageSection title="The score table">
        <ScoreTable />
        <Text size="xs" c="dimmed">
          Scoring data of the MDN HTTP Observatory, algorithm version {observatoryAlgorithmVersion} (
          <Anchor
            href="https://github.com/mdn/mdn-http-observatory"
            target="_blank"
            rel="noreferrer"
            size="xs"
            underline="always"
          >
            mdn/mdn-http-observatory
          </Anchor>
          ), under the Mozilla Public License 2.0.
        </Text>
      </PageSection>
    </Stack>
  );
}
