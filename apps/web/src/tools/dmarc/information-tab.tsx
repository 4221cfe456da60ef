import { Code, Group, List, Stack, Text } from '@mantine/core';
import { dmarcTagDefinitions, type DmarcTagName } from '@rfckit/standards';

import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { RequirementBadge } from '../../components/requirement-badge.tsx';
import type { Requirement, RequirementSynonym } from '../../components/requirement-levels.ts';
import { addedTagExplanations, RemovedBadge, SpecBadge } from './spec-badge.tsx';

const example = '_dmarc.example.com. 3600 IN TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com"';

/** The presence RFC 9989 §4.7 gives each tag (RFC 7489 §6.3 for the removed ones). */
const presence: Record<DmarcTagName, { level: Requirement; text?: RequirementSynonym }> = {
  v: { level: 'MUST', text: 'REQUIRED' },
  p: { level: 'SHOULD', text: 'RECOMMENDED' },
  sp: { level: 'MAY', text: 'OPTIONAL' },
  np: { level: 'MAY', text: 'OPTIONAL' },
  adkim: { level: 'MAY', text: 'OPTIONAL' },
  aspf: { level: 'MAY', text: 'OPTIONAL' },
  fo: { level: 'MAY', text: 'OPTIONAL' },
  rua: { level: 'MAY', text: 'OPTIONAL' },
  ruf: { level: 'MAY', text: 'OPTIONAL' },
  psd: { level: 'MAY', text: 'OPTIONAL' },
  t: { level: 'MAY', text: 'OPTIONAL' },
  pct: { level: 'MAY', text: 'OPTIONAL' },
  ri: { level: 'MAY', text: 'OPTIONAL' },
  rf: { level: 'MAY', text: 'OPTIONAL' },
};

const values: Record<DmarcTagName, string> = {
  v: 'DMARC1, exactly; the first tag',
  p: 'none, quarantine, reject',
  sp: 'none, quarantine, reject',
  np: 'none, quarantine, reject',
  adkim: 'r (relaxed), s (strict)',
  aspf: 'r (relaxed), s (strict)',
  fo: '0 or 1, d, s, separated by colons',
  rua: 'mailto: URIs, separated by commas',
  ruf: 'mailto: URIs, separated by commas',
  psd: 'y, n, u',
  t: 'y, n',
  pct: '0 to 100',
  ri: 'seconds',
  rf: 'afrf',
};

function TagsTable() {
  return (
    <DataTable
      label="DMARC tags"
      minWidth={720}
      caption="The tags of a DMARC record (RFC 9989 §4.7)"
      striped
      verticalSpacing="xs"
      rows={Object.values(dmarcTagDefinitions)}
      rowKey={(tag) => tag.name}
      columns={[
        { header: 'Tag', cell: (tag) => tag.name, rowHeader: true, cellProps: { fw: 500, ff: 'monospace' } },
        {
          header: 'Presence',
          cell: (tag) => (
            <Group gap={4}>
              <RequirementBadge level={presence[tag.name].level} text={presence[tag.name].text} size="xs" />
              {!tag.inRfc9989 && (tag.name === 'pct' || tag.name === 'ri' || tag.name === 'rf') && (
                <RemovedBadge tag={tag.name} />
              )}
              {!tag.inRfc7489 && (tag.name === 'np' || tag.name === 't' || tag.name === 'psd') && (
                <SpecBadge kind="added" explanation={addedTagExplanations[tag.name]} />
              )}
            </Group>
          ),
        },
        { header: 'Values', cell: (tag) => <Text size="sm">{values[tag.name]}</Text> },
        {
          header: 'Default',
          cell: (tag) => (
            <Text size="sm" ff="monospace">
              {tag.defaultValue ?? (tag.name === 'sp' ? 'p' : tag.name === 'np' ? 'sp, else p' : '–')}
            </Text>
          ),
        },
        {
          header: 'What it says',
          cell: (tag) => (
            <>
              <Text size="sm">{tag.title}</Text>
              <Text size="xs" c="dimmed">
                {tag.rfc}
              </Text>
            </>
          ),
        },
      ]}
    />
  );
}

export function InformationTab() {
  return (
    <Stack gap={36}>
      <PageSection title="What DMARC is">
        <Text>
          DMARC lets the owner of a domain say what receivers should do with mail that claims to come from the
          domain (in its From header) but fails authentication, and where to send reports about that mail. A
          message passes DMARC when SPF or DKIM passes for a domain aligned with the From domain. The policy
          is a TXT record at <Code>_dmarc.</Code> followed by the domain.
        </Text>
        <Code block className="mono-block">
          {example}
        </Code>
        <Text size="sm">
          RFC 9989 (2026) replaced RFC 7489 and made DMARC an Internet Standard. It added the <Code>np</Code>,{' '}
          <Code>psd</Code> and <Code>t</Code> tags, removed <Code>pct</Code>, <Code>ri</Code> and{' '}
          <Code>rf</Code>, and finds a domain’s Organizational Domain with a DNS tree walk instead of the
          Public Suffix List. Reporting moved to RFC 9990 (aggregate) and RFC 9991 (failure reports).
        </Text>
      </PageSection>

      <PageSection title="The record">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 9989 §4.7">
            The record starts with <Code>v=DMARC1</Code>, exactly: upper case, first tag, nothing before it.
            Any other record at <Code>_dmarc</Code> is ignored.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9989 §4.10">
            Publish exactly one DMARC record per name: receivers discard all of them when they find two.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 9989 §4.7">
            Include <Code>p</Code>. Without it (or with an invalid one) receivers act as if it said{' '}
            <Code>p=none</Code> when <Code>rua</Code> has a valid address, and ignore the record otherwise.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9989 §4.7">
            Receivers ignore tags they do not know: check the spelling, since a mistyped tag does nothing.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9989 §4.8">
            Report addresses are URIs: write <Code>mailto:dmarc@example.com</Code>, not the bare address, and
            encode a comma or exclamation point in one as %2C or %21.
          </GuidanceItem>
          <GuidanceItem level="WILL" rfc="RFC 9989 §4.8">
            A size limit such as <Code>!10m</Code> after an address is obsolete: receivers ignore it.
          </GuidanceItem>
        </GuidanceList>
        <TagsTable />
      </PageSection>

      <PageSection title="How receivers find the policy">
        <Text size="sm">
          A receiver asks for <Code>_dmarc.</Code> plus the From domain. Without a record there, it walks up
          the DNS tree (RFC 9989 §4.10): one label less at a time, jumping straight to the last seven labels
          for a long name, so that it never asks more than eight names. The Organizational Domain is the
          highest name with a record, unless a record says <Code>psd=n</Code> (this is an Organizational
          Domain) or <Code>psd=y</Code> (this is a public suffix: the domain below it is).
        </Text>
        <GuidanceList>
          <GuidanceItem level="WILL" rfc="RFC 9989 §4.10.1">
            A subdomain without its own record gets its Organizational Domain’s record: <Code>sp</Code> if the
            subdomain exists, <Code>np</Code> if it does not, and <Code>p</Code> when they are absent.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9989 §5.1.8">
            For a name of more than eight labels, publish the record at that name itself: the tree walk skips
            the names in between.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9989 §8">
            Publish a record for the Organizational Domain too, not only for the subdomains you send from.
          </GuidanceItem>
          <GuidanceItem level="HAVE" rfc="RFC 9989 Appendix C.3">
            Receivers still on RFC 7489 use the Public Suffix List and may find a different record: the
            Validator shows both. A record at each sending domain, with strict alignment, avoids the
            difference.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Deploying a policy">
        <GuidanceList>
          <GuidanceItem level="HAVE" rfc="RFC 9989 §5.1.1-§5.1.3">
            Have SPF and DKIM in place for every service that sends as your domain, and a mailbox that reads
            aggregate reports, before you publish.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 9989 §5.1.4-§5.1.5">
            Start with <Code>p=none</Code> and a <Code>rua</Code> address, and stay there for 3-6 months while
            the reports show you every sender.
          </GuidanceItem>
          <GuidanceItem level="COULD" rfc="RFC 7489 §6.3, RFC 9989 Appendix A.6">
            Move to <Code>quarantine</Code> gradually: 25-50% of failing mail first with <Code>pct</Code>,
            which receivers on RFC 7489 honour. RFC 9989 receivers ignore <Code>pct</Code>; <Code>t=y</Code>{' '}
            asks them to apply one level less while you test.
          </GuidanceItem>
          <GuidanceItem level="SHOULD NOT" rfc="RFC 9989 §7.4">
            Domains whose users post to mailing lists should not publish <Code>p=reject</Code>: forwarded mail
            fails DMARC and is rejected.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 9989 §7.4">
            A domain that publishes <Code>p=reject</Code> must not rely on SPF alone: sign all its mail with
            DKIM, which survives forwarding.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 9989 §4.7">
            Leave <Code>sp</Code> out or at least as strict as you can: <Code>sp=none</Code> lets anyone send
            as any subdomain.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Reports">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 9989 §8">
            Collect and read aggregate reports (<Code>rua</Code>): they are how you find the senders that
            still fail.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9990 §3, RFC 7489 §7.1">
            An address in another organisation only receives reports if that organisation publishes{' '}
            <Code>example.com._report._dmarc.its-domain TXT "v=DMARC1"</Code>. Addresses in your own
            Organizational Domain need nothing.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9989 §4.7">
            <Code>fo</Code> only matters with a <Code>ruf</Code> address; receivers ignore it otherwise.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 9989 §5.3.9">
            Receivers may send failure reports (<Code>ruf</Code>); many do not, or redact them for privacy.
          </GuidanceItem>
        </GuidanceList>
        <List size="sm" spacing={4}>
          <List.Item>
            <Code>rua</Code>: daily XML summaries per sending IP address and result.
          </List.Item>
          <List.Item>
            <Code>ruf</Code>: one report per failing message, by the options in <Code>fo</Code>.
          </List.Item>
        </List>
      </PageSection>
    </Stack>
  );
}
