import { Alert, Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  certificateLabel,
  protocolLabel,
  suiteByCode,
  type CertificateScan,
  type CertificateSummary,
  type TlsAnalysis,
  type TriState,
  type Vulnerability,
} from '@rfckit/standards';
import type { ReactNode } from 'react';

import { CopyBlock } from '../../components/copy-block.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { ResultSection } from '../../components/result-section.tsx';
import { passGreen, scoreBand } from '../../components/score-band.ts';
import { LevelBadge } from './level-badge.tsx';

type Report = TlsAnalysis['report'];
type Grading = NonNullable<TlsAnalysis['grading']>;
type VersionScan = Report['versions'][number];
type ScannedSuite = VersionScan['suites'][number];

function FilledBadge({
  colour,
  text,
  children,
  label,
}: {
  colour: string;
  text: string;
  children: ReactNode;
  label?: string;
}) {
  return (
    // a table column squeezes a badge to its ellipsis ("NOT M…") unless it keeps its text's width
    <Badge variant="filled" radius="sm" color={colour} c={text} aria-label={label} miw="max-content">
      {children}
    </Badge>
  );
}

const versionWords = (version: VersionScan['version']) =>
  version === 'SSLv2' ? 'SSL 2.0' : protocolLabel(version);

/** A grade's colour: A green, B and C yellow, anything lower and T or M (the certificate fails) red. */
function gradeStyle(grade: string): { colour: string; text: string } {
  if (grade.startsWith('A')) return { colour: passGreen, text: 'white' };
  if (grade === 'B' || grade === 'C') return { colour: 'yellow.4', text: 'black' };
  return { colour: 'red.9', text: 'white' };
}

/** The letter and the score; nothing that looks like a grade when the server could not be graded. */
function GradeBadges({ grade, score, grading }: { grade: string; score: number; grading: Grading | null }) {
  const band = scoreBand(score);
  const gradeColours = gradeStyle(grade);
  return (
    <Group gap="sm" align="center">
      <Badge
        size="xl"
        radius="sm"
        variant="filled"
        color={gradeColours.colour}
        c={gradeColours.text}
        aria-label={`Grade ${grade}`}
        data-testid="tls-grade"
      >
        {grade}
      </Badge>
      <FilledBadge colour={band.colour} text={band.text} label={`Score ${score} of 100: ${band.word}`}>
        {score}/100 · {band.word}
      </FilledBadge>
      {grading && grading.grade !== grading.gradeIgnoringTrust && (
        <Text size="sm">Grade {grading.gradeIgnoringTrust} if the certificate were trusted</Text>
      )}
    </Group>
  );
}

function GradeSummary({ analysis }: { analysis: TlsAnalysis }) {
  const { grading, grade, score } = analysis;
  return (
    <Stack gap="sm">
      {grade !== null && score !== null && <GradeBadges grade={grade} score={score} grading={grading} />}
      {analysis.ungradedReason && (
        <Alert color="yellow" variant="light" title="Not graded" data-testid="tls-not-graded">
          <Text size="sm">{analysis.ungradedReason}.</Text>
        </Alert>
      )}
      {grading && (
        <DataTable
          label="Score by category"
          minWidth={420}
          rows={[
            { name: 'Protocol support (30 %)', ...grading.categories.protocol },
            { name: 'Key exchange (30 %)', ...grading.categories.keyExchange },
            { name: 'Cipher strength (40 %)', ...grading.categories.cipherStrength },
          ]}
          rowKey={(row) => row.name}
          columns={[
            { header: 'Category', cell: (row) => row.name, rowHeader: true },
            { header: 'Score', cell: (row) => row.score },
            { header: 'Why', cell: (row) => row.basis },
          ]}
        />
      )}
      <Text size="xs" c="dimmed">
        {analysis.report.host}:{analysis.report.port}
        {analysis.report.starttls ? ` (STARTTLS ${analysis.report.starttls})` : ''} at{' '}
        {analysis.report.address} · {analysis.report.stats.connections} connections ·{' '}
        {(analysis.report.stats.durationMs / 1000).toFixed(1)} s
      </Text>
      {analysis.report.incomplete && (
        <Alert color="yellow" variant="light" title="Incomplete scan">
          <Text size="sm">
            Not everything could be learnt (the scan notes below say what); what was found is shown.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

function Caps({ grading, hsts }: { grading: Grading; hsts: TlsAnalysis['hsts'] }) {
  return (
    <ResultSection title="What limits the grade">
      {grading.caps.length === 0 && <Text size="sm">No rule of the rating guide caps this grade.</Text>}
      {grading.caps.map((cap) => (
        <Paper key={`${cap.code}-${cap.evidence}`} withBorder p="sm" data-testid="grade-cap">
          <Stack gap={6}>
            <Group gap="xs">
              <FilledBadge colour="red.9" text="white" label={`Caps the grade at ${cap.grade}`}>
                Max {cap.grade}
              </FilledBadge>
              <Text fw={600} size="sm">
                {cap.reason}
              </Text>
            </Group>
            <Text size="sm">Seen: {cap.evidence}</Text>
            <Text size="xs" c="dimmed">
              {cap.reference}
            </Text>
            <CopyBlock label="Fix" value={cap.fix} copyAriaLabel={`Copy the fix: ${cap.reason}`} />
          </Stack>
        </Paper>
      ))}
      {grading.missingForAPlus.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            A+ also needs
          </Text>
          <List size="sm">
            {grading.missingForAPlus.map((missing) => (
              <List.Item key={missing}>{missing}</List.Item>
            ))}
          </List>
          {hsts.note && (
            <Text size="xs" c="dimmed">
              {hsts.note}
            </Text>
          )}
        </Stack>
      )}
    </ResultSection>
  );
}

function MozillaProfiles({ grading }: { grading: Grading }) {
  return (
    <ResultSection title="Mozilla profiles">
      <Text size="sm">
        {grading.mozillaProfile
          ? `The server meets Mozilla’s ${grading.mozillaProfile} profile.`
          : 'The server meets none of Mozilla’s profiles.'}
      </Text>
      <DataTable
        label="Mozilla profiles"
        minWidth={420}
        rows={grading.mozilla}
        rowKey={(row) => row.profile}
        columns={[
          {
            header: 'Profile',
            cell: (row) => row.profile,
            rowHeader: true,
            // "intermediate" is one word: it must not break mid-word
            cellProps: { style: { whiteSpace: 'nowrap' } },
          },
          {
            header: 'Met',
            cell: (row) =>
              row.meets ? (
                <FilledBadge colour={passGreen} text="white">
                  Met
                </FilledBadge>
              ) : (
                <FilledBadge colour="gray.7" text="white">
                  Not met
                </FilledBadge>
              ),
          },
          {
            header: 'What stops it',
            cell: (row) =>
              row.blockers.length === 0 ? (
                'Nothing'
              ) : (
                <List size="sm">
                  {row.blockers.map((blocker) => (
                    <List.Item key={blocker}>{blocker}</List.Item>
                  ))}
                </List>
              ),
          },
        ]}
      />
    </ResultSection>
  );
}

function keyExchangeOf(suite: ScannedSuite): string {
  const exchange = suite.keyExchange;
  // a static key exchange (RSA) has no group: the database names it
  if (!exchange) return suiteByCode(suite.code)?.keyExchange ?? '—';
  const parts = [
    exchange.group,
    exchange.dhBits === undefined ? undefined : `DH ${exchange.dhBits}-bit`,
    exchange.rsaExportBits === undefined ? undefined : `RSA ${exchange.rsaExportBits}-bit export key`,
  ];
  return parts.filter(Boolean).join(', ');
}

function SuiteTable({ scan }: { scan: VersionScan }) {
  const words = versionWords(scan.version);
  const order =
    scan.preference === 'server'
      ? 'in the server’s order of preference'
      : scan.preference === 'client'
        ? 'the server follows the client’s order'
        : undefined;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {words}: {scan.suites.length} {scan.suites.length === 1 ? 'suite' : 'suites'}
        {order ? `, ${order}` : ''}
      </Text>
      <DataTable
        label={`${words} cipher suites`}
        minWidth={560}
        rows={scan.suites}
        rowKey={(suite) => suite.hex}
        columns={[
          {
            header: 'Suite',
            rowHeader: true,
            cell: (suite) => (
              <Stack gap={0}>
                <Text size="sm" ff="monospace">
                  {suite.name}
                </Text>
                {suite.openssl && (
                  <Text size="xs" c="dimmed" ff="monospace">
                    {suite.openssl}
                  </Text>
                )}
              </Stack>
            ),
          },
          { header: 'Code', cell: (suite) => <code>{suite.hex}</code> },
          { header: 'Key exchange', cell: keyExchangeOf },
          {
            header: 'Level',
            // every SSL 2.0 kind is insecure: the protocol itself is prohibited (RFC 6176)
            cell: (suite) => (
              <LevelBadge
                level={
                  scan.version === 'SSLv2' ? 'INSECURE' : (suiteByCode(suite.code)?.security ?? 'UNKNOWN')
                }
              />
            ),
          },
        ]}
      />
    </Stack>
  );
}

function Versions({ report }: { report: Report }) {
  const supported = report.versions.filter((version) => version.supported);
  const refused = report.versions.filter((version) => !version.supported && version.tested !== false);
  const untested = report.versions.filter((version) => !version.supported && version.tested === false);
  return (
    <ResultSection title="Protocol versions and cipher suites">
      {refused.length > 0 && (
        <Text size="sm">
          Not accepted: {refused.map((version) => versionWords(version.version)).join(', ')}
        </Text>
      )}
      {untested.length > 0 && (
        <Text size="sm">
          Not tested (the scan notes say why):{' '}
          {untested.map((version) => versionWords(version.version)).join(', ')}
        </Text>
      )}
      {[...supported].reverse().map((scan) => (
        <SuiteTable key={scan.version} scan={scan} />
      ))}
    </ResultSection>
  );
}

const triWords: Record<TriState, string> = {
  yes: 'Yes',
  no: 'No',
  'not-applicable': 'Not applicable',
  unknown: 'Could not tell',
};

/** Signature schemes the server signs with: 'not learnt' when no probe could tell. */
function schemeList(schemes: readonly string[] | undefined): string {
  if (schemes === undefined) return 'not learnt';
  return schemes.length > 0 ? schemes.join(', ') : 'none';
}

/** Groups found; 'not learnt' when probes got no usable answer, 'none' only when the server refused them all. */
function groupList(groups: Report['groups'], list: 'tls12' | 'tls13'): string {
  const found = groups[list].join(', ');
  if (groups.unanswered?.includes(list) !== true) return found || 'none';
  return found ? `${found}; others not learnt` : 'not learnt';
}

function KeyExchangeAndFeatures({ report }: { report: Report }) {
  const { groups, features } = report;
  const rows: { name: string; value: ReactNode }[] = [
    { name: 'Groups (TLS 1.2 and below)', value: groupList(groups, 'tls12') },
    { name: 'Groups (TLS 1.3)', value: groupList(groups, 'tls13') },
    {
      name: 'DH prime sizes',
      value:
        groups.dhPrimeBits.length > 0 ? groups.dhPrimeBits.map((bits) => `${bits} bits`).join(', ') : 'none',
    },
    {
      name: 'Signature algorithms (TLS 1.2)',
      value: schemeList(report.signatureAlgorithms),
    },
    {
      name: 'Signature algorithms (TLS 1.3)',
      value: schemeList(report.tls13SignatureAlgorithms),
    },
    { name: 'ALPN', value: features.alpn ?? 'none' },
    { name: 'OCSP stapling', value: triWords[features.ocspStapling] },
    { name: 'Secure renegotiation (RFC 5746)', value: triWords[features.secureRenegotiation] },
    { name: 'TLS_FALLBACK_SCSV (RFC 7507)', value: triWords[features.fallbackScsv] },
    { name: 'Compression', value: triWords[features.compression] },
    { name: 'Session tickets', value: triWords[features.sessionTickets] },
    { name: 'Heartbeat', value: triWords[features.heartbeat] },
    { name: 'Extended master secret (RFC 7627)', value: triWords[features.extendedMasterSecret] },
  ];
  return (
    <ResultSection title="Key exchange and extensions">
      <DataTable
        label="Key exchange and extensions"
        minWidth={420}
        rows={rows}
        rowKey={(row) => row.name}
        columns={[
          { header: 'Property', cell: (row) => row.name, rowHeader: true },
          { header: 'Value', cell: (row) => row.value },
        ]}
      />
    </ResultSection>
  );
}

function keyWords(certificate: CertificateSummary): string {
  const type = certificate.keyType?.toUpperCase() ?? 'unknown key';
  if (certificate.curve) return `${type} ${certificate.curve}`;
  return certificate.keyBits === undefined ? type : `${type} ${certificate.keyBits} bits`;
}

/** One certificate the server serves: its standing, the verifier's words and its chain. */
function CertificateChain({ certificate, heading }: { certificate: CertificateScan; heading?: string }) {
  const verdicts: [boolean, string, string][] = [
    [certificate.trusted, 'Trusted', 'Not trusted'],
    [certificate.nameMatches, 'Name matches', 'Name does not match'],
    [
      !certificate.expired && !certificate.notYetValid,
      'In its validity period',
      'Outside its validity period',
    ],
  ];
  const body = (
    <>
      <Group gap="xs">
        {verdicts.map(([good, yes, no]) => (
          <FilledBadge key={yes} colour={good ? passGreen : 'red.9'} text="white">
            {good ? yes : no}
          </FilledBadge>
        ))}
      </Group>
      {certificate.problem && <Text size="sm">{certificate.problem.message}</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        {certificate.chain.map((entry, index) => (
          <Paper key={entry.fingerprint256} withBorder p="sm">
            <Stack gap={2}>
              <Text size="sm" fw={600}>
                {index === 0 ? 'Server certificate' : `Chain certificate ${index}`}: {entry.subject}
              </Text>
              <Text size="xs">
                Issuer: {entry.issuer}
                {entry.selfSigned ? ' (self-signed)' : ''}
              </Text>
              {entry.subjectAltNames.length > 0 && (
                <Text size="xs">Names: {entry.subjectAltNames.join(', ')}</Text>
              )}
              <Text size="xs">
                Valid {entry.validFrom.slice(0, 10)} to {entry.validTo.slice(0, 10)}
              </Text>
              <Text size="xs">
                Key: {keyWords(entry)} · Signature: {entry.signatureAlgorithm ?? 'unknown'} · SCTs:{' '}
                {entry.sctCount}
              </Text>
              <Text size="xs" c="dimmed" ff="monospace">
                SHA-256 {entry.fingerprint256}
              </Text>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </>
  );
  if (heading === undefined) return <Stack gap="xs">{body}</Stack>;
  return (
    <Stack gap="xs" component="section" aria-label={heading}>
      <Title order={5}>{heading}</Title>
      {body}
    </Stack>
  );
}

/** Every certificate the server serves: one per key type on a server with RSA and ECDSA certificates. */
function Certificates({ report }: { report: Report }) {
  const { certificates } = report;
  const [only] = certificates;
  if (only === undefined || certificates.length === 1)
    return (
      <ResultSection title="Certificate chain">
        {only === undefined ? (
          <Text size="sm">No certificate could be read from the server.</Text>
        ) : (
          <CertificateChain certificate={only} />
        )}
      </ResultSection>
    );
  return (
    <ResultSection title="Certificates">
      <Text size="sm">
        The server has {certificates.length} certificates: a client gets the one its cipher suites and
        signature algorithms can use, so each is checked and graded.
      </Text>
      {certificates.map((certificate) => (
        <CertificateChain
          key={certificate.chain[0]?.fingerprint256}
          certificate={certificate}
          heading={certificateLabel(certificate)}
        />
      ))}
    </ResultSection>
  );
}

const statusStyle: Record<Vulnerability['status'], { colour: string; text: string; word: string }> = {
  vulnerable: { colour: 'red.9', text: 'white', word: 'Vulnerable' },
  ok: { colour: passGreen, text: 'white', word: 'Not vulnerable' },
  unknown: { colour: 'gray.7', text: 'white', word: 'Could not tell' },
};
const statusOrder: Vulnerability['status'][] = ['vulnerable', 'unknown', 'ok'];

function Vulnerabilities({ report }: { report: Report }) {
  const sorted = [...report.vulnerabilities].sort(
    (a, b) => statusOrder.indexOf(a.status) - statusOrder.indexOf(b.status),
  );
  return (
    <ResultSection title="Vulnerabilities">
      {sorted.map((finding) => {
        const style = statusStyle[finding.status];
        return (
          <Paper
            // a server with several certificates has a certificate finding for each
            key={`${finding.id} ${finding.title}`}
            withBorder
            p="sm"
            data-testid="tls-vulnerability"
            data-status={finding.status}
          >
            <Stack gap={6}>
              <Group gap="xs">
                <FilledBadge colour={style.colour} text={style.text}>
                  {style.word}
                </FilledBadge>
                <Text fw={600} size="sm">
                  {finding.title}
                </Text>
                {finding.status === 'vulnerable' && (
                  <Text size="xs" c="dimmed">
                    {finding.severity} severity
                  </Text>
                )}
              </Group>
              <Text size="sm">{finding.evidence}</Text>
              {finding.references.length > 0 && (
                <Text size="xs" c="dimmed">
                  {finding.references.join(' · ')}
                </Text>
              )}
              {finding.status !== 'ok' && (
                <CopyBlock label="Fix" value={finding.fix} copyAriaLabel={`Copy the fix: ${finding.title}`} />
              )}
            </Stack>
          </Paper>
        );
      })}
    </ResultSection>
  );
}

/** A scanned server: its grade and what limits it, Mozilla's profiles, suites, certificate and vulnerabilities. */
export function ScanResult({ analysis }: { analysis: TlsAnalysis }) {
  const { grading, report } = analysis;
  return (
    // suite names, fingerprints and host names have no spaces to break at on a phone
    <Stack gap="lg" style={{ overflowWrap: 'anywhere' }}>
      <GradeSummary analysis={analysis} />
      {grading && <Caps grading={grading} hsts={analysis.hsts} />}
      {grading && <MozillaProfiles grading={grading} />}
      <Versions report={report} />
      <KeyExchangeAndFeatures report={report} />
      <Certificates report={report} />
      <Vulnerabilities report={report} />
      {report.notes.length > 0 && (
        <ResultSection title="Scan notes">
          <List size="sm">
            {report.notes.map((note) => (
              <List.Item key={note}>{note}</List.Item>
            ))}
          </List>
        </ResultSection>
      )}
    </Stack>
  );
}
