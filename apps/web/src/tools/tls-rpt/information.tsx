import { Code, List, Stack, Text, Title } from '@mantine/core';
import { tlsRptResultTypes, type TlsRptResultTypeInfo } from '@rfckit/standards';
import type { ReactNode } from 'react';

import { DataTable } from '../../components/data-table.tsx';
import { RequirementBadge } from '../../components/requirement-badge.tsx';

interface RecordPart {
  part: string;
  level: 'MUST' | 'MAY';
  meaning: string;
}

const recordParts: readonly RecordPart[] = [
  {
    part: 'v=TLSRPTv1',
    level: 'MUST',
    meaning: 'The version, written exactly so (case matters) and always first.',
  },
  {
    part: 'rua=',
    level: 'MUST',
    meaning: 'Where reports go: one or more mailto: or https: URIs, separated by commas. Use one rua= only.',
  },
  {
    part: 'other name=value',
    level: 'MAY',
    meaning: 'Extension fields; senders ignore those they do not know. RFC 8460 defines none.',
  },
];

const uriTypes = [
  {
    scheme: 'mailto:',
    delivery:
      'Email: a multipart/report message (report-type=tlsrpt) with the report attached as application/tlsrpt+gzip or +json. Reports must be DKIM-signed by the sender; unsigned ones are to be ignored (RFC 8460 §5.3).',
  },
  {
    scheme: 'https:',
    delivery:
      'An HTTP POST of the report (application/tlsrpt+gzip or +json) to the URI; answer 2xx when it is received (RFC 8460 §5.4). http: is not allowed.',
  },
];

/** A part of the panel, one heading level below the page's sections. */
function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section">
      <Title order={3} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

const categoryNames = { negotiation: 'TLS negotiation', dane: 'DANE', sts: 'MTA-STS' } as const;

/** The spec's information panel: record parts, URI types, failure types and the implementation steps. */
export function TlsRptInformation() {
  return (
    <Stack gap="xl">
      <Text>
        SMTP TLS Reporting (RFC 8460) asks sending mail servers to report, once a day, how many TLS sessions
        to your MX hosts succeeded and which failed and why: expired or wrong-name certificates, missing
        STARTTLS, MTA-STS or DANE policy problems. It changes nothing about delivery; it shows you what
        senders meet.
      </Text>
      <Part title="Record parts">
        <Text size="sm">
          One TXT record at <Code>_smtp._tls.example.com</Code>; several strings are joined without spaces.
          With more than one record starting v=TLSRPTv1, senders send no reports at all.
        </Text>
        <DataTable
          label="TLS-RPT record parts"
          caption="TLS-RPT record parts (RFC 8460 §3)"
          minWidth={520}
          verticalSpacing="xs"
          rows={recordParts}
          rowKey={(part) => part.part}
          columns={[
            { header: 'Part', cell: (part) => <Code>{part.part}</Code>, rowHeader: true },
            { header: 'Level', cell: (part) => <RequirementBadge level={part.level} size="xs" /> },
            { header: 'Meaning', cell: (part) => part.meaning },
          ]}
        />
      </Part>
      <Part title="Reporting URI types">
        <DataTable
          label="Reporting URI types"
          caption="Reporting URI types (RFC 8460 §3, §5)"
          minWidth={520}
          verticalSpacing="xs"
          rows={uriTypes}
          rowKey={(type) => type.scheme}
          columns={[
            { header: 'Scheme', cell: (type) => <Code>{type.scheme}</Code>, rowHeader: true },
            { header: 'Delivery', cell: (type) => type.delivery },
          ]}
        />
      </Part>
      <Part title="Failure types">
        <DataTable
          label="TLS-RPT result types"
          caption="Result types (RFC 8460 §4.3)"
          minWidth={640}
          verticalSpacing="xs"
          rows={tlsRptResultTypes}
          rowKey={(type: TlsRptResultTypeInfo) => type.type}
          columns={[
            { header: 'Result type', cell: (type) => <Code>{type.type}</Code>, rowHeader: true },
            { header: 'Kind', cell: (type) => categoryNames[type.category] },
            { header: 'Meaning', cell: (type) => type.meaning },
            { header: 'What to do', cell: (type) => type.fix },
          ]}
        />
      </Part>
      <Part title="Implementation steps">
        <List type="ordered" spacing="xs">
          <List.Item>
            Choose where reports go: a mailbox (mailto:) or an HTTPS endpoint that accepts POSTs, or both.
          </List.Item>
          <List.Item>
            Generate the record above and publish it as TXT at <Code>_smtp._tls.&lt;your domain&gt;</Code>;
            keep a single record.
          </List.Item>
          <List.Item>Validate the published record with a domain look-up above.</List.Item>
          <List.Item>
            For a mailbox, accept multipart/report mail and check its DKIM signature; for HTTPS, accept
            application/tlsrpt+gzip and +json bodies.
          </List.Item>
          <List.Item>
            Read the daily reports (the report viewer above takes the .json.gz attachments) and fix what
            fails, before moving MTA-STS from testing to enforce.
          </List.Item>
        </List>
      </Part>
    </Stack>
  );
}
