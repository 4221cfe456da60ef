import { Code, Stack, Text } from '@mantine/core';

import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { RequirementBadge } from '../../components/requirement-badge.tsx';
import type { Requirement, RequirementSynonym } from '../../components/requirement-levels.ts';

const example = [
  'default._domainkey.example.com. IN TXT (',
  '  "v=DKIM1; k=ed25519; h=sha256; s=email; "',
  '  "p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=" )',
].join('\n');

const tags: {
  tag: string;
  level: Requirement;
  levelText?: RequirementSynonym;
  meaning: string;
  values: string;
}[] = [
  {
    tag: 'v=',
    level: 'SHOULD',
    levelText: 'RECOMMENDED',
    meaning: 'Version. If present it must be the first tag and exactly DKIM1.',
    values: 'DKIM1',
  },
  {
    tag: 'k=',
    level: 'MAY',
    levelText: 'OPTIONAL',
    meaning: 'Key type; rsa when absent. Keys of unknown types are ignored.',
    values: 'rsa, ed25519 (RFC 8463)',
  },
  {
    tag: 'p=',
    level: 'MUST',
    levelText: 'REQUIRED',
    meaning: 'Public key in base64. Empty means the key is revoked.',
    values: 'RSA: SubjectPublicKeyInfo; Ed25519: 32 bytes',
  },
  {
    tag: 'h=',
    level: 'MAY',
    levelText: 'OPTIONAL',
    meaning: 'Hash algorithms the key may be used with; all when absent.',
    values: 'sha256 (sha1 MUST NOT, RFC 8301)',
  },
  {
    tag: 's=',
    level: 'MAY',
    levelText: 'OPTIONAL',
    meaning: 'Service types the key is for; * when absent.',
    values: 'email, *, tlsrpt (RFC 8460)',
  },
  {
    tag: 't=',
    level: 'MAY',
    levelText: 'OPTIONAL',
    meaning: 'Flags, separated by colons. Unknown flags are ignored.',
    values: 'y (testing), s (i= must equal d=)',
  },
  {
    tag: 'n=',
    level: 'MAY',
    levelText: 'OPTIONAL',
    meaning: 'Notes for administrators; verifiers ignore them.',
    values: 'quoted-printable text',
  },
];

/** What DKIM key records are and what the standards require of them. */
export function InformationTab() {
  return (
    <Stack gap="xl">
      <PageSection title="What a DKIM key record is">
        <Text size="sm">
          DKIM (RFC 6376) lets a domain sign the mail it sends. The signer adds a DKIM-Signature header naming
          the domain (d=) and a selector (s=); receivers fetch the public key from the TXT record at{' '}
          <Code>selector._domainkey.domain</Code> and verify the signature. Several selectors let you rotate
          keys or sign from several services.
        </Text>
        <Code block aria-label="Example key record">
          {example}
        </Code>
        <Text size="sm">
          A 2048-bit RSA key does not fit in one 255-character TXT string: publish it as several quoted
          strings in one record. Verifiers join them without spaces.
        </Text>
      </PageSection>

      <PageSection title="Tags of the key record">
        <DataTable
          label="Key record tags"
          minWidth={620}
          fz="sm"
          rows={tags}
          rowKey={(row) => row.tag}
          columns={[
            { header: 'Tag', cell: (row) => <Code>{row.tag}</Code> },
            {
              header: 'Level',
              cell: (row) => <RequirementBadge level={row.level} text={row.levelText} size="xs" />,
            },
            { header: 'Meaning', cell: (row) => row.meaning },
            { header: 'Values', cell: (row) => row.values },
          ]}
        />
        <Text size="xs" c="dimmed">
          RFC 6376 §3.6.1; tags a verifier does not know are ignored (§3.2). A tag appearing twice makes the
          whole record invalid.
        </Text>
      </PageSection>

      <PageSection title="Keys and algorithms">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 8301 §3.1">
            Signers sign with rsa-sha256.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 8301 §3.1">
            Verifiers consider rsa-sha1 signatures valid. Do not sign with rsa-sha1 and do not restrict a key
            to h=sha1.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 8301 §3.2">
            RSA keys have at least 1024 bits; verifiers must not accept signatures with shorter keys.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 8301 §3.2">
            RSA keys have at least 2048 bits. Verifiers must handle keys from 1024 to 4096 bits, so stay
            within that range.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 8463 §3, §4">
            Sign with ed25519-sha256 too: its key record carries the 32-byte public key with k=ed25519.
            Verifiers that do not know it ignore that signature, so keep an RSA signature alongside.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 6376 §3.4, §5.3">
            Use relaxed/relaxed canonicalization: it survives the whitespace and header-case changes mail
            servers commonly make, where simple breaks.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Rotating and revoking keys">
        <GuidanceList>
          <GuidanceItem level="SHOULD" rfc="RFC 6376 §3.1">
            Publish a new key under a new selector, switch the signer to it, and keep the old record until
            mail signed with it has been delivered.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 6376 §3.6.1">
            Revoke a retired key by publishing its record with an empty p=; signatures using it then fail.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 6376 §3.6.1">
            Treat mail from a domain in testing mode (t=y) differently from unsigned mail: verifiers ignore
            failures while t=y is set, so remove it once signatures verify.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>
    </Stack>
  );
}
