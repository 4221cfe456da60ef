import { Code, List, Stack, Text } from '@mantine/core';
import { SPF_LOOKUP_LIMIT, SPF_VOID_LOOKUP_LIMIT, TXT_STRING_MAX_OCTETS } from '@rfckit/standards';

import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';

const example = 'example.com. 3600 IN TXT "v=spf1 ip4:192.0.2.0/24 include:_spf.example.net -all"';

/** What RFC 7208 asks of an SPF record, each rule with its requirement level and section. */
export function InformationTab() {
  return (
    <Stack gap="xl">
      <PageSection title="What SPF does">
        <Text size="sm">
          Sender Policy Framework lets a domain list the hosts that may send mail using its name in the SMTP
          MAIL FROM (the envelope sender, also called Return-Path) and HELO identities. A receiver evaluates
          the record against the connecting IP address and gets one of pass, fail, softfail, neutral, none,
          permerror or temperror (RFC 7208 §2.6). SPF does not check the From header people see: DMARC ties
          the two together.
        </Text>
        <Code block>{example}</Code>
      </PageSection>

      <PageSection title="Publishing the record">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 7208 §3.1">
            Publish SPF as a DNS TXT record at the domain name itself, and only as TXT: the SPF RR type (99)
            is no longer used.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 7208 §3.2, §4.5">
            Publish more than one record starting with <Code>v=spf1</Code> at one name: receivers return
            permerror. Merge every sending service into one record.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 7208 §3.3; RFC 1035 §3.3.14">
            Keep each quoted string of the TXT record to {TXT_STRING_MAX_OCTETS} characters. A longer record
            is split into several strings, which receivers join without spaces, so the split must fall where a
            space is kept inside a string.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 7208 §3.4">
            Keep the whole TXT answer under 450 octets so that it fits a 512-octet UDP DNS reply.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="The DNS lookup limits">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 7208 §4.6.4">
            Stay within {SPF_LOOKUP_LIMIT} DNS lookups: every <Code>include</Code>, <Code>a</Code>,{' '}
            <Code>mx</Code>, <Code>ptr</Code> and <Code>exists</Code> mechanism and the <Code>redirect</Code>{' '}
            modifier counts one, including those inside included records. The {SPF_LOOKUP_LIMIT + 1}th makes
            the result permerror, so mail from every service after it fails SPF. <Code>ip4</Code>,{' '}
            <Code>ip6</Code> and <Code>all</Code> cost nothing.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 7208 §4.6.4">
            Receivers limit void lookups (names that answer NXDOMAIN or no records) to {SPF_VOID_LOOKUP_LIMIT}
            ; the next one is permerror. Remove includes of services you no longer use.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 7208 §4.6.4">
            An <Code>mx</Code> mechanism may name at most 10 mail servers and a <Code>ptr</Code> looks at most
            10 names; more is permerror for <Code>mx</Code>.
          </GuidanceItem>
        </GuidanceList>
        <Text size="sm">
          Flattening (replacing includes by the addresses they resolve to today) saves lookups but goes stale
          when the provider changes its networks: prefer dropping unused services or moving a service to its
          own subdomain.
        </Text>
      </PageSection>

      <PageSection title="Mechanisms and qualifiers">
        <GuidanceList>
          <GuidanceItem level="SHOULD NOT" rfc="RFC 7208 §5.5">
            Use <Code>ptr</Code>: it is slow, unreliable and puts load on the .arpa name servers. List the
            addresses instead.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 7208 §6">
            Write <Code>redirect=</Code> or <Code>exp=</Code> more than once. <Code>redirect=</Code> uses
            another domain&apos;s record when nothing here matched and is ignored when the record has an{' '}
            <Code>all</Code>; <Code>exp=</Code> names a TXT record whose text receivers may show after a fail.
          </GuidanceItem>
        </GuidanceList>
        <List size="sm" spacing={4}>
          <List.Item>
            End the record with <Code>all</Code>: <Code>-all</Code> (fail) once every sender is listed,{' '}
            <Code>~all</Code> (softfail) while you are still finding them. Without it the result for an
            unlisted host is neutral (RFC 7208 §4.7).
          </List.Item>
          <List.Item>
            Never publish <Code>+all</Code> (every host on the internet may send as you) or <Code>?all</Code>{' '}
            (no statement at all): both defeat the record (RFC 7208 §5.1, §2.6.2).
          </List.Item>
          <List.Item>
            Put <Code>ip4</Code>/<Code>ip6</Code> first: terms are evaluated left to right and the first match
            decides, so cheap matches save the receiver lookups. Terms after <Code>all</Code> are never read.
          </List.Item>
          <List.Item>
            <Code>ip4:192.0.2.0/24</Code>, <Code>ip6:2001:db8::/32</Code>: addresses or networks.{' '}
            <Code>a</Code>, <Code>mx</Code>: the addresses of the domain, or of its mail servers.
          </List.Item>
          <List.Item>
            <Code>include:_spf.example.net</Code>: matches when that domain&apos;s record passes.{' '}
            <Code>exists:%{'{i}'}._spf.example.com</Code>: matches when the name (usually with macros) has an
            A record.
          </List.Item>
          <List.Item>
            Qualifiers: <Code>+</Code> pass (the default), <Code>-</Code> fail, <Code>~</Code> softfail,{' '}
            <Code>?</Code> neutral.
          </List.Item>
        </List>
      </PageSection>

      <PageSection title="After you publish">
        <Text size="sm">
          DNS changes can take up to 24 hours to reach every resolver, as caches keep the old record until its
          TTL runs out. Lower the TTL a day before a change, then check the published record with the
          Validator tab and test a sending address with the Test tab.
        </Text>
      </PageSection>
    </Stack>
  );
}
