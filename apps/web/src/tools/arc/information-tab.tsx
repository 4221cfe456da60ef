import { Anchor, Code, List, Stack, Text, Title } from '@mantine/core';

import { Diagram } from '../../components/diagram.tsx';
import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { RequirementBadge } from '../../components/requirement-badge.tsx';
import type { Requirement, RequirementSynonym } from '../../components/requirement-levels.ts';

// One ARC set as RFC 8617 §4.1 shows it, newest first as a sealer prepends it.
const exampleSet = [
  'ARC-Seal: i=1; a=rsa-sha256; cv=none; d=lists.example.org; s=arc; t=1732352400;',
  '        b=Kx3v…',
  'ARC-Message-Signature: i=1; a=rsa-sha256; c=relaxed/relaxed; d=lists.example.org;',
  '        s=arc; t=1732352400; h=from:to:subject:date; bh=47DEQpj8…; b=Vd9Q…',
  'ARC-Authentication-Results: i=1; lists.example.org;',
  '        spf=pass smtp.mailfrom=example.com; dkim=pass header.d=example.com;',
  '        dmarc=pass header.from=example.com',
].join('\n');

const flow = `flowchart TD
  sender["Sender example.com<br/>signs with DKIM, publishes SPF and DMARC"]
  list["Mailing list or forwarder<br/>checks SPF, DKIM and DMARC on arrival"]
  seal["Adds ARC set i=1<br/>AAR: the results it saw · AMS: signs the message · AS: seals the chain, cv=none"]
  change["Changes the message and resends it<br/>subject tag, footer, its own servers"]
  receiver["Final receiver<br/>SPF fails (new IP), DKIM fails (body changed), so DMARC fails"]
  validate{"ARC chain validation<br/>RFC 8617 §5.2"}
  trust["cv=pass: may trust the AAR of i=1<br/>if it trusts lists.example.org (local policy)"]
  dmarc["cv=fail or none<br/>DMARC result applies unchanged"]
  sender --> list --> seal --> change --> receiver --> validate
  validate -->|pass| trust
  validate -->|fail or none| dmarc`;

const flowText =
  'How ARC carries authentication results across an intermediary: the sender signs with DKIM; a mailing ' +
  'list checks SPF, DKIM and DMARC on arrival and adds ARC set 1 (ARC-Authentication-Results with what it ' +
  'saw, ARC-Message-Signature over the message, ARC-Seal over the ARC fields with cv=none); it then changes ' +
  'and resends the message, so at the final receiver SPF and DKIM fail and DMARC fails. The receiver ' +
  'validates the ARC chain: when it passes and the receiver trusts the list, it may use the results the list ' +
  'recorded; when it fails or is absent, the DMARC result applies unchanged.';

interface TagRow {
  tag: string;
  level: Requirement;
  levelText?: RequirementSynonym;
  meaning: string;
}

const aarTags: TagRow[] = [
  { tag: 'i=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Instance of this ARC set, 1 to 50, first.' },
  {
    tag: 'authserv-id',
    level: 'MUST',
    levelText: 'REQUIRED',
    meaning: 'Who made the checks; then the results as in Authentication-Results (RFC 8601).',
  },
  {
    tag: 'spf= dkim= dmarc= arc=',
    level: 'SHOULD',
    meaning: 'The results the intermediary saw on arrival, copied from its Authentication-Results.',
  },
];

const amsTags: TagRow[] = [
  { tag: 'i=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Instance; replaces the DKIM AUID.' },
  {
    tag: 'a=',
    level: 'MUST',
    levelText: 'REQUIRED',
    meaning: 'Algorithm: rsa-sha256 (ed25519-sha256 where supported; rsa-sha1 MUST NOT, RFC 8301).',
  },
  { tag: 'b=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Signature over the signed header fields.' },
  { tag: 'bh=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Hash of the canonicalized body.' },
  {
    tag: 'd=',
    level: 'MUST',
    levelText: 'REQUIRED',
    meaning: 'Signing domain; the key is at s._domainkey.d.',
  },
  { tag: 's=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Selector of the key.' },
  {
    tag: 'h=',
    level: 'MUST',
    levelText: 'REQUIRED',
    meaning: 'Signed header fields. Never Authentication-Results or ARC-Seal.',
  },
  {
    tag: 'c=',
    level: 'MAY',
    levelText: 'OPTIONAL',
    meaning:
      'Canonicalization header/body. When absent, RFC 6376 reads simple/simple but ARC validators (and the ARC test suite) read relaxed/relaxed: always write it.',
  },
  { tag: 't=', level: 'SHOULD', levelText: 'RECOMMENDED', meaning: 'Signing time, seconds since 1970.' },
  {
    tag: 'l=',
    level: 'MAY',
    levelText: 'OPTIONAL',
    meaning: 'Body length signed; text appended after it is unsigned (RFC 6376 §8.2).',
  },
  {
    tag: 'v=',
    level: 'MUST NOT',
    meaning: 'Not defined for the AMS: a verifier ignores it (unlike DKIM-Signature).',
  },
];

const asTags: TagRow[] = [
  { tag: 'i=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Instance of the set it seals.' },
  { tag: 'a=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Algorithm, as for the AMS.' },
  {
    tag: 'b=',
    level: 'MUST',
    levelText: 'REQUIRED',
    meaning: 'Signature over all ARC sets up to this one (relaxed header canonicalization).',
  },
  {
    tag: 'cv=',
    level: 'MUST',
    levelText: 'REQUIRED',
    meaning: 'Chain validation status the sealer found: none, pass or fail.',
  },
  { tag: 'd=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Sealing domain.' },
  { tag: 's=', level: 'MUST', levelText: 'REQUIRED', meaning: 'Selector of the key.' },
  { tag: 't=', level: 'SHOULD', levelText: 'RECOMMENDED', meaning: 'Sealing time, seconds since 1970.' },
  {
    tag: 'h= bh=',
    level: 'MUST NOT',
    meaning: 'The seal covers the ARC fields in a fixed order and no body; a seal with h= fails.',
  },
];

function TagTable({ caption, rows }: { caption: string; rows: TagRow[] }) {
  return (
    <DataTable
      label={caption}
      minWidth={560}
      caption={caption}
      fz="sm"
      rows={rows}
      rowKey={(row) => row.tag}
      columns={[
        { header: 'Tag', cell: (row) => <Code>{row.tag}</Code> },
        {
          header: 'Level',
          cell: (row) => <RequirementBadge level={row.level} text={row.levelText} size="xs" />,
        },
        { header: 'Meaning', cell: (row) => row.meaning },
      ]}
    />
  );
}

const cvValues: { value: string; meaning: string }[] = [
  { value: 'none', meaning: 'No ARC set was on the message: only instance 1 may say this.' },
  {
    value: 'pass',
    meaning: 'Every earlier seal and the newest AMS verified: every instance above 1 must say this.',
  },
  {
    value: 'fail',
    meaning: 'The chain was broken on arrival. The chain ends here: later validators stop at it.',
  },
];

const references: { name: string; title: string; href: string }[] = [
  {
    name: 'RFC 8617',
    title: 'The Authenticated Received Chain (ARC) Protocol',
    href: 'https://www.rfc-editor.org/rfc/rfc8617',
  },
  {
    name: 'RFC 6376',
    title: 'DomainKeys Identified Mail (DKIM) Signatures: tags, canonicalization, keys',
    href: 'https://www.rfc-editor.org/rfc/rfc6376',
  },
  {
    name: 'RFC 8601',
    title: 'Message Header Field for Indicating Message Authentication Status',
    href: 'https://www.rfc-editor.org/rfc/rfc8601',
  },
  {
    name: 'RFC 8301',
    title: 'Cryptographic Algorithm and Key Usage Update to DKIM',
    href: 'https://www.rfc-editor.org/rfc/rfc8301',
  },
  {
    name: 'RFC 8463',
    title: 'A New Cryptographic Signature Method for DKIM (Ed25519)',
    href: 'https://www.rfc-editor.org/rfc/rfc8463',
  },
  {
    name: 'RFC 7960',
    title: 'Interoperability Issues between DMARC and Indirect Email Flows',
    href: 'https://www.rfc-editor.org/rfc/rfc7960',
  },
];

/** What ARC is for, its three header fields and how a chain is validated (RFC 8617). */
export function InformationTab() {
  return (
    <Stack gap="xl">
      <PageSection title="What ARC is for">
        <Text size="sm">
          SPF checks the server that hands a message over, and DKIM checks that the signed header fields and
          body are unchanged. Forwarders and mailing lists break both: they resend from their own servers, and
          lists add subject tags and footers. DMARC then fails for legitimate mail (RFC 7960). ARC (RFC 8617)
          lets each intermediary record the authentication results it saw on arrival and seal them, so a later
          receiver can see that the message passed before it was changed, and by whom it was changed.
        </Text>
        <Text size="sm">
          ARC does not override DMARC on its own: a receiver decides by local policy which sealers it trusts
          (RFC 8617 §7.2). An intermediary that modifies mail should seal it; a receiver may use a passing
          chain from a trusted sealer to accept mail that DMARC would reject.
        </Text>
        <Diagram
          definition={flow}
          label={flowText}
          caption="How an ARC set carries the results of a mailing list to the final receiver."
        />
      </PageSection>

      <PageSection title="The three header fields">
        <Text size="sm">
          Each intermediary adds one ARC set: three header fields sharing one instance number <Code>i=</Code>,
          counting from 1 (RFC 8617 §4.1, §4.2). The AMS and AS reuse the DKIM tag syntax and keys (
          <Code>s._domainkey.d</Code> TXT records).
        </Text>
        <Code block aria-label="Example ARC set">
          {exampleSet}
        </Code>
        <Title order={3} size="h4">
          ARC-Authentication-Results (AAR)
        </Title>
        <Text size="sm">
          A copy of the Authentication-Results the intermediary wrote, with the instance in front (RFC 8617
          §4.1.1).
        </Text>
        <TagTable caption="ARC-Authentication-Results tags" rows={aarTags} />
        <Title order={3} size="h4">
          ARC-Message-Signature (AMS)
        </Title>
        <Text size="sm">
          A DKIM signature of the message as the intermediary passes it on, with <Code>i=</Code> as instance
          and no <Code>v=</Code> (RFC 8617 §4.1.2).
        </Text>
        <TagTable caption="ARC-Message-Signature tags" rows={amsTags} />
        <Title order={3} size="h4">
          ARC-Seal (AS)
        </Title>
        <Text size="sm">
          Signs every ARC header field of this and the earlier sets, in instance order (AAR, AMS, then AS of
          each set), so no set can be removed or changed without breaking the seal (RFC 8617 §4.1.3, §5.1.1).
        </Text>
        <TagTable caption="ARC-Seal tags" rows={asTags} />
      </PageSection>

      <PageSection title="Chain validation status (cv=)">
        <DataTable
          label="cv values"
          minWidth={480}
          caption="Values of cv= (RFC 8617 §4.4)"
          fz="sm"
          rows={cvValues}
          rowKey={(row) => row.value}
          columns={[
            { header: 'cv=', cell: (row) => <Code>{row.value}</Code> },
            { header: 'Meaning', cell: (row) => row.meaning },
          ]}
        />
      </PageSection>

      <PageSection title="How a chain is validated">
        <List type="ordered" size="sm" spacing="xs" aria-label="Chain validation steps">
          <List.Item>
            Collect the ARC sets. None: the status is <Code>none</Code>. More than 50: <Code>fail</Code>.
          </List.Item>
          <List.Item>
            The newest ARC-Seal says <Code>cv=fail</Code>: the status is <Code>fail</Code>.
          </List.Item>
          <List.Item>
            Check the structure: each set has exactly one AAR, AMS and AS; instances run 1 to N without gaps
            or repeats; <Code>cv=none</Code> at instance 1 and <Code>cv=pass</Code> above it. Otherwise{' '}
            <Code>fail</Code>.
          </List.Item>
          <List.Item>
            Verify the AMS with the highest instance (body hash and signature). If it fails: <Code>fail</Code>
            .
          </List.Item>
          <List.Item>
            Optionally find the oldest instance whose AMS still verifies (oldest-pass), to tell how far back
            the message is unchanged.
          </List.Item>
          <List.Item>
            Verify every ARC-Seal from the highest instance down to 1. If any fails: <Code>fail</Code>.
          </List.Item>
          <List.Item>
            Otherwise the status is <Code>pass</Code>. The next sealer writes it as its <Code>cv=</Code>.
          </List.Item>
        </List>
        <Text size="xs" c="dimmed">
          RFC 8617 §5.2. Keys are the DKIM key records of each set&apos;s d= and s=; RFC 8301 applies on top:
          rsa-sha1 and RSA keys under 1024 bits fail.
        </Text>
      </PageSection>

      <PageSection title="Requirements">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 8617 §4.2.1">
            Instances are 1 to 50. A message with more than 50 ARC sets fails validation, so a 51st set is
            never useful.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8617 §5.1">
            A sealer adds all three fields with the same instance, the next after the highest on the message,
            and writes the chain status it found in cv=.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8617 §5.1.2">
            When the chain on arrival fails, the sealer writes cv=fail and its seal covers only its own set:
            the chain ends there, and every later validator reports fail.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 8301 §3.1">
            Sign with rsa-sha1: verifiers treat such seals and signatures as failing.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 8301 §3.2">
            Use RSA keys of at least 2048 bits (1024 is the minimum a verifier accepts).
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 8617 §7.2">
            Receivers use a passing chain from a sealer they trust to override a DMARC failure; the AAR of
            that sealer says what it saw.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="References">
        <Stack component="ul" gap={4} m={0} pl="md">
          {references.map((reference) => (
            <Text component="li" size="sm" key={reference.name}>
              <Anchor href={reference.href} target="_blank" rel="noreferrer" underline="always">
                {reference.name}
              </Anchor>
              : {reference.title}
            </Text>
          ))}
        </Stack>
      </PageSection>
    </Stack>
  );
}
