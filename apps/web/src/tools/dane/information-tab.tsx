import { Code, Stack, Text } from '@mantine/core';
import { tlsaMatchingTypes, tlsaSelectors, tlsaUsages, type TlsaFieldValue } from '@rfckit/standards';

import { DataTable } from '../../components/data-table.tsx';
import { Diagram } from '../../components/diagram.tsx';
import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';

const exampleRecord = [
  '; owner                      class type usage selector matching data',
  '_25._tcp.mail.example.com.   IN    TLSA 3     1        1        (',
  '    75b946f1b6efb49f10f03f1617302e48 2a105c2e6d5baae2c2fc4a9676fcafab )',
].join('\n');

const structure = `flowchart LR
  owner["Owner name<br/>_port._protocol.host"]
  usage["Certificate usage<br/>0 PKIX-TA · 1 PKIX-EE<br/>2 DANE-TA · 3 DANE-EE"]
  selector["Selector<br/>0 Cert · 1 SPKI"]
  matching["Matching type<br/>0 Full · 1 SHA2-256 · 2 SHA2-512"]
  data["Certificate association data<br/>hex"]
  owner --> usage --> selector --> matching --> data`;

const structureText =
  'TLSA record structure: the owner name _port._protocol.host, then four fields: the certificate usage (0 PKIX-TA, ' +
  '1 PKIX-EE, 2 DANE-TA, 3 DANE-EE), the selector (0 full certificate, 1 SubjectPublicKeyInfo), the matching type ' +
  '(0 full, 1 SHA-256, 2 SHA-512) and the certificate association data in hex.';

const flow = `sequenceDiagram
  participant C as Client (sending MTA)
  participant R as Validating resolver
  participant S as Server (MX host)
  C->>R: MX and A/AAAA of the domain (DNSSEC)
  R-->>C: Secure answers
  C->>R: TLSA _25._tcp.mx-host
  R-->>C: Secure TLSA RRset
  C->>S: STARTTLS, TLS handshake (SNI)
  S-->>C: Certificate chain
  C->>C: Match the chain against each usable TLSA record
  alt a record matches
    C->>S: Deliver over the authenticated connection
  else none matches
    C-->>C: Do not deliver, retry later
  end`;

const flowText =
  'Validation flow: the client looks up MX and address records with DNSSEC, then the TLSA records at _25._tcp of ' +
  'the MX host. If they are secure it starts TLS, receives the server chain and matches it against each usable ' +
  'record. With a match it delivers over the authenticated connection; without one it does not deliver and ' +
  'retries later.';

function FieldTable({ caption, rows }: { caption: string; rows: readonly TlsaFieldValue[] }) {
  return (
    <DataTable
      label={caption}
      caption={caption}
      minWidth={520}
      verticalSpacing="xs"
      rows={rows}
      rowKey={(row) => row.value}
      columns={[
        { header: 'Value', cell: (row) => row.value, cellProps: { ff: 'monospace' } },
        { header: 'Name (RFC 7218)', cell: (row) => row.acronym, rowHeader: true, cellProps: { fw: 500 } },
        { header: 'Meaning', cell: (row) => <Text size="sm">{row.meaning}</Text> },
        { header: 'Defined in', cell: (row) => <Text size="xs">{row.rfc}</Text> },
      ]}
    />
  );
}

export function InformationTab() {
  return (
    <Stack gap={36}>
      <PageSection title="What a TLSA record is">
        <Text>
          DANE (DNS-Based Authentication of Named Entities) lets a domain say in DNSSEC-signed DNS which
          certificate or key its TLS server presents. A TLSA record sits at the name of the service,
          _port._protocol.host, and holds four fields:
        </Text>
        <Code block className="mono-block">
          {exampleRecord}
        </Code>
        <Diagram definition={structure} label={structureText} caption="TLSA record structure" />
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 6698 §3">
            The record is published at _port._protocol.host, e.g. _25._tcp.mail.example.com for SMTP and
            _443._tcp.www.example.com for HTTPS.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 6698 §1.3, RFC 7671 §3">
            TLSA records count only in a DNSSEC-signed zone whose answers validate: in an unsigned zone
            clients ignore them.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 6698 §2.1.3">
            A SHA2-256 digest is 32 octets (64 hex digits), a SHA2-512 digest 64 octets (128 hex digits).
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Certificate usages">
        <FieldTable caption="Certificate usages (RFC 6698 §2.1.1, names from RFC 7218)" rows={tlsaUsages} />
        <GuidanceList>
          <GuidanceItem level="SHOULD" levelText="RECOMMENDED" rfc="RFC 7671 §5.1">
            DANE-EE with SPKI and SHA2-256 (3 1 1) is the recommended record: it pins the server key, survives
            renewals that keep the key, and ignores the certificate’s names and dates.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 7671 §5.2.2">
            With DANE-TA (2) the server MUST send the trust-anchor certificate in its chain, unless the record
            holds it in full (2 0 0 or 2 1 0).
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Selectors and matching types">
        <FieldTable caption="Selectors (RFC 6698 §2.1.2)" rows={tlsaSelectors} />
        <FieldTable caption="Matching types (RFC 6698 §2.1.3)" rows={tlsaMatchingTypes} />
      </PageSection>

      <PageSection title="DANE for SMTP">
        <Diagram definition={flow} label={flowText} caption="DANE validation flow for SMTP" />
        <GuidanceList>
          <GuidanceItem level="SHOULD NOT" rfc="RFC 7672 §3.1.3">
            Records for SMTP servers should not use PKIX-TA (0) or PKIX-EE (1): sending servers treat them as
            unusable, because MX hosts have no common set of public CAs.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 7672 §2.2">
            The TLSA records of mail are looked up per MX host, at _25._tcp of the MX host name (after
            CNAMEs), and only when the MX and address answers are secure.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 7672 §2.1.1">
            When the TLSA answer is bogus (fails DNSSEC validation), a sending server must not deliver to that
            host.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Rolling keys and certificates over">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 7671 §8.1">
            Publish the record of the next key beside the current one, wait at least two TTLs of the TLSA
            RRset, then switch the server, then remove the old record. A record missing for the live key makes
            mail wait or web clients fail.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 7671 §8">
            Publish 3 1 1 for the server key together with 2 1 1 for the issuing CA: a renewal by the same CA
            keeps matching while you update the 3 1 1 record.
          </GuidanceItem>
          <GuidanceItem level="SHOULD NOT" rfc="RFC 7671 §8.3">
            Do not change the key and the TLSA parameters in one step.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>
    </Stack>
  );
}
