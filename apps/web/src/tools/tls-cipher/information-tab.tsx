import { Stack, Text } from '@mantine/core';
import { mozillaGuidelines, mozillaGuidelinesVersion } from '@rfckit/standards';

import { DataTable } from '../../components/data-table.tsx';
import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';
import { LevelBadge } from './level-badge.tsx';

const levels = [
  {
    level: 'HIGH',
    meaning:
      'No known weakness beyond informational ones: AEAD ciphers with forward secrecy, the TLS 1.3 suites.',
    example: 'TLS_AES_128_GCM_SHA256, ECDHE-ECDSA-AES256-GCM-SHA384',
  },
  {
    level: 'MEDIUM',
    meaning:
      'One medium weakness: CBC mode, SHA-1 HMAC, static RSA key exchange or finite-field DHE, or an 8-byte CCM tag.',
    example: 'AES128-GCM-SHA256 (no forward secrecy), ECDHE-RSA-AES128-SHA256 (CBC)',
  },
  {
    level: 'LOW',
    meaning: 'Several medium weaknesses together, e.g. CBC with SHA-1, or 3DES.',
    example: 'ECDHE-RSA-AES128-SHA, DES-CBC3-SHA',
  },
  {
    level: 'INSECURE',
    meaning: 'A broken part: NULL encryption, anonymous or export key exchange, RC4, DES, MD5.',
    example: 'RC4-SHA, EXP-RC4-MD5, ADH-AES128-SHA, NULL-SHA',
  },
] as const;

export function InformationTab() {
  return (
    <Stack gap="xl">
      <PageSection title="What a cipher suite is">
        <Text>
          A TLS 1.0-1.2 cipher suite names four algorithms at once: the key exchange (ECDHE, DHE, RSA), the
          authentication (the certificate’s key type), the bulk cipher and its mode (AES-GCM,
          ChaCha20-Poly1305, AES-CBC) and the MAC hash. TLS 1.3 suites name only the AEAD cipher and hash; key
          exchange is always ephemeral and negotiated separately (RFC 8446 §4.2.7). Every suite has a two-byte
          code point in the IANA registry, which is what travels in the ClientHello.
        </Text>
      </PageSection>

      <PageSection title="Protocol versions">
        <GuidanceList>
          <GuidanceItem level="SHOULD" rfc="RFC 9325 §3.1.1; RFC 8446">
            Support TLS 1.3, and prefer it when the client offers it.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9325 §3.1.1; RFC 5246">
            Support TLS 1.2: it is the version every current client shares.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 8996 §5">
            Negotiate TLS 1.0 or TLS 1.1: both are deprecated (SHA-1 handshake, no AEAD suites).
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 7568 §3">
            Negotiate SSL 3.0: its CBC padding is broken (POODLE).
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 6176 §3">
            Negotiate SSL 2.0, or even accept its hello: a server that speaks it exposes its key to DROWN.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Cipher suites">
        <GuidanceList>
          <GuidanceItem level="SHOULD" levelText="RECOMMENDED" rfc="RFC 9325 §4.2">
            Use ECDHE (or DHE of 2048 bits or more) with AES-GCM or ChaCha20-Poly1305, e.g.{' '}
            <span style={{ overflowWrap: 'anywhere' }}>TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256</span>.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 7465 §2">
            Use RC4 in any version.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 9325 §4.1">
            Use NULL encryption, anonymous key exchange, export suites or ciphers under 112 bits (DES).
          </GuidanceItem>
          <GuidanceItem level="SHOULD NOT" rfc="RFC 9325 §4.1">
            Use suites without forward secrecy (static RSA or DH key exchange), or 64-bit block ciphers such
            as 3DES (SWEET32).
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Security levels">
        <DataTable
          label="Security levels"
          minWidth={640}
          rows={levels}
          rowKey={(row) => row.level}
          columns={[
            { header: 'Level', cell: (row) => <LevelBadge level={row.level} />, rowHeader: true },
            { header: 'Meaning', cell: (row) => row.meaning },
            {
              header: 'Examples',
              cell: (row) => (
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {row.example}
                </Text>
              ),
            },
          ]}
        />
        <Text size="sm" c="dimmed">
          Levels come from ciphersuite.info’s weaknesses of each part of the suite. A suite the IANA registry
          does not know shows as UNKNOWN.
        </Text>
      </PageSection>

      <PageSection title="Mozilla’s profiles">
        <DataTable
          label="Mozilla Server Side TLS profiles"
          minWidth={640}
          rows={mozillaGuidelines}
          rowKey={(row) => row.name}
          columns={[
            { header: 'Profile', cell: (row) => row.name, rowHeader: true },
            { header: 'Versions', cell: (row) => row.tlsVersions.join(', ') },
            { header: 'TLS 1.2 suites', cell: (row) => row.ciphersIana.length },
            { header: 'Oldest clients', cell: (row) => row.oldestClients.join(', ') },
          ]}
        />
        <Text size="sm" c="dimmed">
          Mozilla Server Side TLS guidelines {mozillaGuidelinesVersion}. Intermediate suits almost every
          public server; the Recommendations tab writes each profile for your server.
        </Text>
      </PageSection>

      <PageSection title="How a server is graded">
        <Text>
          The grade follows Qualys SSL Labs’ rating guide: protocol support counts 30 %, key exchange 30 % and
          cipher strength 40 % (A from 80, B from 65, C from 50, D from 35, E from 20). Caps then limit it: F
          for SSL 2.0, export or NULL suites, keys under 1024 bits, Heartbleed or CCS injection (an early
          ChangeCipherSpec taken, CVE-2014-0224); C without TLS 1.2 or with RC4 or 3DES on TLS 1.1+; B for TLS
          1.0/1.1, keys under 2048 bits or no forward secrecy. A certificate that is not trusted gives T, one
          for another name M. A+ needs HSTS for at least 180 days and TLS_FALLBACK_SCSV (RFC 7507). Scores of
          80 and more show green, 60 and more yellow, lower red.
        </Text>
      </PageSection>
    </Stack>
  );
}
