import { Code, Stack, Text } from '@mantine/core';
import { mtaStsDefaultMaxAge, mtaStsMaxAgeLimit } from '@rfckit/standards';

import { DataTable } from '../../components/data-table.tsx';
import { Diagram } from '../../components/diagram.tsx';
import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';

const exampleRecord = '_mta-sts.example.com.  3600  IN  TXT  "v=STSv1; id=20240101120000"';

const examplePolicy = [
  'version: STSv1',
  'mode: enforce',
  'mx: mail.example.com',
  'mx: *.backup.example.net',
  `max_age: ${mtaStsDefaultMaxAge}`,
].join('\n');

const flow = `sequenceDiagram
  participant S as Sending MTA
  participant D as DNS
  participant W as mta-sts.example.com (HTTPS)
  participant M as MX host
  S->>D: TXT _mta-sts.example.com
  D-->>S: v=STSv1 and the policy id
  S->>W: GET /.well-known/mta-sts.txt (certificate checked, no redirects)
  W-->>S: 200 text/plain policy
  S->>D: MX example.com
  D-->>S: mail.example.com
  S->>S: MX host matches an mx pattern?
  S->>M: STARTTLS, certificate valid for mail.example.com?
  alt enforce and a check fails
    S-->>S: Do not deliver to this host
  else passes, or testing mode
    S->>M: Deliver (testing: report failures by TLS-RPT)
  end`;

const flowText =
  'MTA-STS flow: the sending MTA looks up the TXT record at _mta-sts of the recipient domain, fetches the policy ' +
  'over HTTPS from mta-sts.<domain> with a checked certificate and no redirects, then looks up the MX hosts, ' +
  'checks that each matches an mx pattern of the policy and that it offers STARTTLS with a certificate valid for ' +
  'its name. In enforce mode it does not deliver to a host that fails; in testing mode it delivers and reports ' +
  'the failure through TLS-RPT.';

const modes = [
  {
    mode: 'enforce',
    meaning:
      'Senders deliver only to MX hosts that match the policy and offer STARTTLS with a valid certificate.',
    when: 'Once TLS reports show no failures.',
  },
  {
    mode: 'testing',
    meaning: 'Senders check and report failures (TLS-RPT) but still deliver.',
    when: 'First, for a few weeks, with a TLS-RPT record.',
  },
  {
    mode: 'none',
    meaning: 'Senders stop applying the policy they cached.',
    when: 'To withdraw MTA-STS, before removing it.',
  },
];

export function InformationTab() {
  return (
    <Stack gap={36}>
      <PageSection title="What MTA-STS is">
        <Text>
          SMTP between mail servers uses STARTTLS opportunistically: an attacker on the path can strip it or
          present any certificate, and the sender falls back to plain text. MTA-STS (SMTP MTA Strict Transport
          Security, RFC 8461) lets a domain say that its MX hosts support TLS with certificates from public
          authorities, so that senders refuse to deliver over anything less.
        </Text>
        <Diagram definition={flow} label={flowText} caption="How a sending MTA applies MTA-STS" />
      </PageSection>

      <PageSection title="The two parts">
        <Text>A TXT record in DNS announces the policy and its version:</Text>
        <Code block className="mono-block">
          {exampleRecord}
        </Code>
        <Text>
          The policy itself is a text file served over HTTPS from
          https://mta-sts.example.com/.well-known/mta-sts.txt:
        </Text>
        <Code block className="mono-block">
          {examplePolicy}
        </Code>
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 8461 §3.1">
            The record starts with v=STSv1 and has an id of 1 to 32 letters or digits. Change the id whenever
            the policy changes: senders fetch the policy again only when the id differs.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8461 §3.1">
            Only one TXT record at _mta-sts may start with v=STSv1; with two, senders assume there is no
            policy.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8461 §3.2">
            The policy has version: STSv1, a mode, max_age and, unless the mode is none, one mx line per MX
            host pattern. A pattern may start with *. to allow exactly one label in front of the name.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 8461 §3.3">
            Senders do not follow redirects, and accept only HTTP 200 over a certificate valid for
            mta-sts.&lt;domain&gt;.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 8461 §3.2">
            Serve the file as text/plain: senders should refuse other types.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Modes">
        <DataTable
          label="MTA-STS modes"
          caption="Policy modes (RFC 8461 §5)"
          minWidth={480}
          verticalSpacing="xs"
          rows={modes}
          rowKey={(row) => row.mode}
          columns={[
            {
              header: 'Mode',
              cell: (row) => row.mode,
              rowHeader: true,
              cellProps: { ff: 'monospace', fw: 500 },
            },
            { header: 'What senders do', cell: (row) => <Text size="sm">{row.meaning}</Text> },
            { header: 'When to use it', cell: (row) => <Text size="sm">{row.when}</Text> },
          ]}
        />
      </PageSection>

      <PageSection title="max_age">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 8461 §3.2">
            max_age is the number of seconds senders may cache the policy, in digits only, from 0 to{' '}
            {mtaStsMaxAgeLimit} (about a year).
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 8461 §3.2">
            Weeks or more: a sender with a cached policy stays protected when an attacker blocks the policy
            refresh. The generator starts at {mtaStsDefaultMaxAge} (one week).
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Deploying it">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 8461 §3.3">
            Give mta-sts.&lt;domain&gt; a web server with a certificate from a public authority valid for that
            name.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 8460">
            Publish a TLS-RPT record at _smtp._tls.&lt;domain&gt; and a policy in testing mode; read the
            reports.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8461 §4.1">
            Make sure every MX host matches an mx line and presents a certificate valid for its own name.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 8461 §5">
            Switch to enforce, raise max_age, and change the record id.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8461 §8.3">
            To withdraw: publish mode none with a new id, wait for the old max_age to pass, then remove both.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>
    </Stack>
  );
}
