import { Code, Group, Stack, Text } from '@mantine/core';
import { dnssecAlgorithms, dsDigestAlgorithms } from '@rfckit/standards';

import { Diagram } from '../../components/diagram.tsx';
import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { RequirementBadge } from '../../components/requirement-badge.tsx';
import { statusBadge } from './implementation-status.ts';

// A real ECDSA P-256 KSK (key tag 20078); its private key was discarded after generation.
const exampleRecord = [
  '; owner      TTL  class type   flags protocol algorithm public key',
  'example.com. 3600 IN    DNSKEY 257   3        13        (',
  '    JCivFx/K/20OwB/eYUFTyjt2WlK8gTLx+XCwn2wPFpom',
  '    A1n1DxCTk9/Ok9su9IiupPZP2P2nnGHkiMjFzQxrKw== )',
].join('\n');

const chainOfTrust = `flowchart TD
  anchor["Root trust anchor<br/>configured in the resolver"]
  parent["Parent zone com.<br/>validated from the root down"]
  ds["DS record for example.com<br/>in the parent, signed by the parent"]
  ksk["KSK of example.com<br/>DNSKEY flags 257"]
  rrset["DNSKEY RRset of example.com<br/>signed by the KSK (RRSIG)"]
  zsk["ZSK of example.com<br/>DNSKEY flags 256"]
  data["Zone RRsets: A, MX, TXT …<br/>signed by the ZSK (RRSIG)"]
  anchor -->|validates| parent
  parent -->|publishes| ds
  ds -->|digest matches| ksk
  ksk -->|signs| rrset
  rrset -->|contains| zsk
  zsk -->|signs| data`;

const chainOfTrustText =
  'Chain of trust: a validating resolver starts from its root trust anchor and validates the parent zone. ' +
  'The parent publishes a DS record for example.com whose digest matches the child zone’s KSK. The KSK signs ' +
  'the DNSKEY RRset, which contains the ZSK, and the ZSK signs every other RRset of the zone.';

function AlgorithmTable() {
  // algorithms with a level in RFC 8624 / RFC 9905; the rest are reserved or informational only
  const rows = dnssecAlgorithms.filter((a) => a.status.signing !== null || a.status.validation !== null);
  return (
    <DataTable
      label="DNSSEC algorithm requirement levels"
      minWidth={600}
      caption="DNSSEC algorithm requirement levels"
      striped
      verticalSpacing="xs"
      rows={rows}
      rowKey={(a) => a.number}
      columns={[
        { header: 'Number', cell: (a) => a.number, cellProps: { ff: 'monospace' } },
        { header: 'Mnemonic', cell: (a) => a.mnemonic, rowHeader: true, cellProps: { fw: 500 } },
        {
          header: 'Zone signing',
          cell: (a) => a.status.signing && <RequirementBadge {...statusBadge(a.status.signing)} size="xs" />,
        },
        {
          header: 'Validation',
          cell: (a) =>
            a.status.validation && <RequirementBadge {...statusBadge(a.status.validation)} size="xs" />,
        },
        { header: 'Source', cell: (a) => <Text size="xs">{a.status.rfc}</Text> },
      ]}
    />
  );
}

function DigestTable() {
  return (
    <DataTable
      label="DS digest types"
      minWidth={520}
      caption="DS digest types (RFC 8624 §3.3)"
      verticalSpacing="xs"
      rows={dsDigestAlgorithms}
      rowKey={(d) => d.type}
      columns={[
        { header: 'Type', cell: (d) => d.type, cellProps: { ff: 'monospace' } },
        { header: 'Digest', cell: (d) => d.name, rowHeader: true, cellProps: { fw: 500 } },
        { header: 'Publish in the parent', cell: (d) => <RequirementBadge level={d.delegation} size="xs" /> },
        { header: 'Validation', cell: (d) => <RequirementBadge {...statusBadge(d.validation)} size="xs" /> },
        { header: 'Defined in', cell: (d) => <Text size="xs">{d.definedIn}</Text> },
      ]}
    />
  );
}

export function InformationTab() {
  return (
    <Stack gap={36}>
      <PageSection title="What a DNSKEY record is">
        <Text>
          A DNSKEY record publishes a public key of a DNSSEC-signed zone at the zone apex. Validating
          resolvers use it to check the RRSIG signatures on the zone’s data. After the owner, TTL, class and
          type come four fields:
        </Text>
        <Code block className="mono-block">
          {exampleRecord}
        </Code>
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 4034 §2.1.1">
            The Zone Key flag (bit 7, value 256) must be set on every key that signs zone data. A key without
            it MUST NOT be used to verify RRSIGs.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 4034 §2.1.2">
            The protocol field MUST be 3. A key with any other value is treated as invalid during signature
            verification.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 4034 §2.1.1">
            Flag bits other than Zone Key, Secure Entry Point and Revoke MUST be 0 when the key is created and
            MUST be ignored on receipt.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 4034 §2.1.1">
            Validators MUST NOT change their behaviour because of the Secure Entry Point bit: it is only a
            hint to signing and debugging software.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 5011 §7">
            A key with the Revoke bit (bit 8, value 128) set has been revoked by its owner; resolvers that
            track trust anchors MUST stop trusting it.
          </GuidanceItem>
          <GuidanceItem level="WILL" rfc="RFC 4034 §2.1.4">
            The public key is base64 in the zone file; its inner format depends on the algorithm: RSA exponent
            and modulus (RFC 3110), a 64- or 96-byte ECDSA point (RFC 6605), or a 32- or 57-byte EdDSA key
            (RFC 8080). rfckit checks the key against the format of its algorithm.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="KSK and ZSK">
        <Text>
          Most zones use two keys. The key-signing key (KSK, flags 257: Zone Key and Secure Entry Point) signs
          only the DNSKEY RRset and is the key the parent’s DS record points to. The zone-signing key (ZSK,
          flags 256) signs all other records. The split lets you replace the ZSK often without touching the
          parent zone.
        </Text>
        <GuidanceList>
          <GuidanceItem level="HAVE">
            You have to have a way to publish DS records in the parent zone, usually through your registrar,
            before the zone is trusted by validating resolvers.
          </GuidanceItem>
          <GuidanceItem level="WILL">
            A validating resolver will treat the zone as bogus, and answer SERVFAIL, if no DNSKEY in the zone
            matches a DS record in the parent or the signatures do not verify.
          </GuidanceItem>
          <GuidanceItem level="COULD" rfc="RFC 6781 §3.1">
            You could use a single combined signing key (CSK, flags 257) for everything: simpler to operate,
            but every key rollover then involves the parent.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Key tags">
        <Text>
          The key tag is a 16-bit checksum of the DNSKEY RDATA (RFC 4034 Appendix B). RRSIG and DS records
          carry it so a resolver can quickly find the key that made a signature. Algorithm 1 uses a different
          calculation (Appendix B.1).
        </Text>
        <GuidanceList>
          <GuidanceItem level="WILL" rfc="RFC 4034 Appendix B">
            Two different keys can have the same tag: resolvers use the tag only to pick candidate keys and
            try each one, so a tag is not a unique key identifier.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="DS records in the parent zone">
        <Text>
          A DS record in the parent zone holds a digest of the child’s owner name and DNSKEY RDATA (RFC 4034
          §5.1.4), together with the key tag, algorithm and digest type. It is the link that carries trust
          from the parent down to your KSK. The validator computes DS records for every key it is given with
          an owner name.
        </Text>
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 8624 §3.3">
            Publish a DS record with digest type 2 (SHA-256).
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 8624 §3.3">
            Do not publish DS records with digest type 1 (SHA-1) for a delegation.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 8624 §3.3">
            Digest type 4 (SHA-384) may be published in addition.
          </GuidanceItem>
        </GuidanceList>
        <DigestTable />
      </PageSection>

      <PageSection title="Algorithm recommendations">
        <Text>
          RFC 8624 sets requirement levels for signing zones and for validating resolvers separately; RFC 9905
          later made the SHA-1 based RSA algorithms MUST NOT for signing.
        </Text>
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 8624 §3.1">
            Implementations must support ECDSAP256SHA256 (13) and RSASHA256 (8) for signing and validation.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" levelText="RECOMMENDED" rfc="RFC 8624 §3.1">
            ED25519 (15) is recommended for signing and validation.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 8624 §3.1; RFC 9905 §2">
            Do not sign with RSAMD5 (1), DSA (3, 6), ECC-GOST (12), RSASHA1 (5) or RSASHA1-NSEC3-SHA1 (7).
          </GuidanceItem>
          <GuidanceItem level="SHOULD NOT" levelText="NOT RECOMMENDED" rfc="RFC 8624 §3.1">
            RSASHA512 (10) is not recommended for signing.
          </GuidanceItem>
          <GuidanceItem level="COULD">
            Prefer ECDSAP256SHA256 (13) for new zones: its keys and signatures are far smaller than RSA’s,
            which keeps DNS responses small.
          </GuidanceItem>
        </GuidanceList>
        <AlgorithmTable />
      </PageSection>

      <PageSection title="Chain of trust">
        <Diagram
          definition={chainOfTrust}
          label={chainOfTrustText}
          caption="How a validating resolver reaches your zone’s records from the root trust anchor."
        />
        <Group gap="xs">
          <RequirementBadge level="WILL" />
          <Text size="sm">
            A break anywhere in this chain makes validating resolvers reject the zone’s answers.
          </Text>
        </Group>
      </PageSection>

      <PageSection title="Validating the chain: secure, insecure, bogus">
        <Text>
          The Chain tab walks this chain for a name, as a validating resolver does, and verifies every DS,
          DNSKEY set and signature itself. Each zone and the answer end in one of the states of RFC 4035 §4.3;
          where the DNS answers needed could not be had, the result is indeterminate.
        </Text>
        <GuidanceList>
          <GuidanceItem level="WILL" rfc="RFC 4035 §4.3">
            Secure: an unbroken chain of signed DNSKEY and DS records leads from a trust anchor to the
            records, and every signature on it verifies inside its validity window.
          </GuidanceItem>
          <GuidanceItem level="WILL" rfc="RFC 4035 §4.3, §5.2">
            Insecure: a signed NSEC or NSEC3 record in the parent proves the delegation has no DS. The zone is
            unsigned; its answers are accepted but not protected.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 4035 §4.3, §5.5">
            Bogus: a trust anchor or a DS says the zone is signed, but a signature, key, digest or denial
            proof fails. Validating resolvers MUST NOT return bogus data: they answer SERVFAIL.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 4035 §5.3.1">
            A signature is used only between its inception and expiration times, only by the zone named as its
            signer, and only with a key whose tag and algorithm it names.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 9276 §3.1">
            NSEC3 zones SHOULD use 0 extra iterations and no salt: more of either costs resolvers and adds
            nothing.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>
    </Stack>
  );
}
