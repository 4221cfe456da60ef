import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { mailServices, smtpTlsServiceTypes, srvServiceOf, tlsStartOf } from '@rfckit/standards';
import { Link } from 'react-router';

import { DataTable } from '../../components/data-table.tsx';
import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';

const serviceRows = smtpTlsServiceTypes.map((serviceType) => {
  const service = mailServices[serviceType];
  const srv = srvServiceOf(serviceType, service.port);
  return {
    serviceType,
    label: service.label,
    port: service.port,
    tls: tlsStartOf(serviceType, service.port) === 'implicit' ? 'Implicit TLS' : 'STARTTLS',
    srv: srv === null ? '—' : `_${srv}._tcp`,
  };
});

/** What RFC 7817 asks of a mail client checking a server's certificate, and of the certificate. */
export function InformationTab() {
  return (
    // long names and code (_submissions._tcp.example.com) break rather than push a phone's page sideways
    <Stack gap="lg" style={{ overflowWrap: 'anywhere' }}>
      <Text>
        RFC 7817 says how submission, IMAP, POP and ManageSieve clients check that the certificate a mail
        server presents over TLS belongs to the server they meant to reach. It applies the general rules of
        RFC 6125 §6 with a few of its own. Relay between mail servers on port 25 is outside it: senders
        authenticate receiving servers with{' '}
        <Anchor component={Link} to="/tools/mta-sts" underline="always">
          MTA-STS
        </Anchor>{' '}
        or{' '}
        <Anchor component={Link} to="/tools/dane" underline="always">
          DANE
        </Anchor>
        .
      </Text>
      <Stack gap="xs">
        <Title order={3}>The identity check</Title>
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 7817 §3">
            Clients compare the host name they connected to (the server hostname) with the certificate’s
            DNS-IDs (subjectAltName dNSName). Every mail certificate should carry the server hostname as a
            DNS-ID.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 7817 §3, RFC 6186">
            A client that found the server through SRV records of the email domain (_imaps._tcp.example.com …)
            also uses the email domain: it looks for an SRV-ID such as <code>_imaps.example.com</code>{' '}
            (subjectAltName SRVName, RFC 4985). It may trust the host name from the SRV record only if the
            answer was DNSSEC-validated.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 7817 §3, RFC 6125 §6.4.4">
            The subject CN is looked at only when the certificate has no DNS-ID and no SRV-ID, for old
            certificates; many current clients never look at it.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 7817 §3">
            A wildcard <code>*</code> may stand as the complete left-most label: <code>*.example.com</code>{' '}
            matches
            <code> mail.example.com</code>, not <code>example.com</code> and not <code>a.b.example.com</code>.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 7817 §3, RFC 6125 §6.4.3">
            A wildcard in part of a label (<code>m*.example.com</code>) or inside an internationalised A-label
            (<code>xn--*</code>) never matches. URI-IDs are never used to identify a mail server.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 5280 §7.2, RFC 5891">
            Internationalised names are compared as A-labels (xn--…): a certificate carries them so, and a
            name typed in Unicode here is converted first.
          </GuidanceItem>
        </GuidanceList>
      </Stack>
      <Stack gap="xs">
        <Title order={3}>Services, ports and SRV names</Title>
        <DataTable
          label="Mail services"
          minWidth={520}
          rows={serviceRows}
          rowKey={(row) => row.serviceType}
          columns={[
            { header: 'Service type', cell: (row) => row.serviceType, rowHeader: true },
            { header: 'Service', cell: (row) => row.label },
            { header: 'Port', cell: (row) => row.port },
            { header: 'TLS', cell: (row) => row.tls },
            { header: 'SRV record', cell: (row) => row.srv },
          ]}
        />
        <Text size="sm" c="dimmed">
          Submission also runs on 465 with implicit TLS (_submissions._tcp, RFC 8314 §5.1), which RFC 8314
          prefers.
        </Text>
      </Stack>
      <Stack gap="xs">
        <Title order={3}>Using this tool</Title>
        <List size="sm" spacing={4}>
          <List.Item>
            Generator: the names a certificate needs, an OpenSSL request configuration, and the DNS records.
          </List.Item>
          <List.Item>
            Validator: a certificate’s identifiers typed in, a pasted PEM certificate, or the certificate
            fetched live from the server, checked against the rules above.
          </List.Item>
          <List.Item>Backend Info: what this server checks and its limits.</List.Item>
        </List>
      </Stack>
    </Stack>
  );
}
