import { Code, Stack, Text } from '@mantine/core';
import { securityTxtFields, type FieldOccurrence } from '@rfckit/standards';

import { GuidanceItem, GuidanceList } from '../../components/guidance-list.tsx';
import { PageSection } from '../../components/page-section.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { RequirementBadge } from '../../components/requirement-badge.tsx';
import type { Requirement } from '../../components/requirement-levels.ts';

// the example of RFC 9116 §2.6, its Expires (2021) moved forward
const example = [
  '# Our security address',
  'Contact: mailto:security@example.com',
  '',
  '# Our OpenPGP key',
  'Encryption: https://example.com/pgp-key.txt',
  '',
  '# Our security policy',
  'Policy: https://example.com/security-policy.html',
  '',
  '# Our security acknowledgments page',
  'Acknowledgments: https://example.com/hall-of-fame.html',
  '',
  'Expires: 2026-12-31T18:37:07Z',
].join('\n');

const occurrence: Record<FieldOccurrence, { level: Requirement; text: string }> = {
  'required-once': { level: 'MUST', text: 'Exactly once' },
  required: { level: 'MUST', text: 'At least once' },
  once: { level: 'MAY', text: 'At most once' },
  any: { level: 'MAY', text: 'Any number of times' },
};

function FieldsTable() {
  return (
    <DataTable
      label="security.txt fields"
      minWidth={640}
      caption="The fields of the IANA security.txt registry"
      striped
      verticalSpacing="xs"
      rows={securityTxtFields}
      rowKey={(field) => field.key}
      columns={[
        {
          header: 'Field',
          cell: (field) => field.name,
          rowHeader: true,
          cellProps: { fw: 500, ff: 'monospace' },
        },
        {
          header: 'Presence',
          cell: (field) => <RequirementBadge level={occurrence[field.occurrence].level} size="xs" />,
        },
        { header: 'How often', cell: (field) => <Text size="sm">{occurrence[field.occurrence].text}</Text> },
        { header: 'What it says', cell: (field) => <Text size="sm">{field.summary}</Text> },
        { header: 'Defined in', cell: (field) => <Text size="xs">{field.rfc}</Text> },
      ]}
    />
  );
}

export function InformationTab() {
  return (
    <Stack gap={36}>
      <PageSection title="What security.txt is">
        <Text>
          security.txt is a small text file that tells security researchers how to report a vulnerability to
          you: whom to contact, which key to encrypt with, which policy applies. RFC 9116 defines its place on
          your web server, its syntax and its fields. Each line is a field (<Code>Name: value</Code>), a
          comment starting with <Code>#</Code>, or empty.
        </Text>
        <Code block className="mono-block">
          {example}
        </Code>
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 9116 §2.5.3">
            The file must contain at least one Contact field: a mailto:, tel: or https: URI. List the
            preferred way of reaching you first.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9116 §2.5.5">
            The file must contain exactly one Expires field, a date and time in RFC 3339 format such as
            2026-12-31T23:59:59Z. After that moment researchers treat the file as stale.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 9116 §2.5.5">
            Expires should be less than a year ahead, so that an outdated file does not linger.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9116 §2.5.1–§2.5.7">
            Every URI field that points at a web page must begin with https://.
          </GuidanceItem>
          <GuidanceItem level="MUST NOT" rfc="RFC 9116 §2.5.4">
            Encryption must not contain the key itself, only a URI where it can be fetched (https:, dns: or
            openpgp4fpr:).
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9116 §2.2">
            Every line, the last one included, ends with a line break: CRLF or LF.
          </GuidanceItem>
          <GuidanceItem level="MAY" rfc="RFC 9116 §2.4">
            Fields outside the registry are allowed, but validators ignore them; check the spelling of
            Acknowledgments (no e after the g).
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Fields">
        <FieldsTable />
      </PageSection>

      <PageSection title="Where to publish it">
        <GuidanceList>
          <GuidanceItem level="MUST" rfc="RFC 9116 §3">
            Serve the file at <Code>https://example.com/.well-known/security.txt</Code>, over https. The
            top-level
            <Code>/security.txt</Code> is for legacy clients only: redirect it to the well-known path.
          </GuidanceItem>
          <GuidanceItem level="MUST" rfc="RFC 9116 §3, §4">
            Send it as <Code>Content-Type: text/plain; charset=utf-8</Code>, encoded in UTF-8 without a byte
            order mark.
          </GuidanceItem>
          <GuidanceItem level="WILL" rfc="RFC 9116 §3.1">
            A file applies to the host it is served from: publish one on every host that needs one, or
            redirect to a shared one.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 9116 §5.2">
            Researchers should record every redirect on the way to the file, since one can lead to a host an
            attacker controls. The Validator’s fetch mode lists each redirect and warns when one leads to
            another host.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>

      <PageSection title="Signing the file">
        <Text>
          A signature lets researchers check that the file really comes from you. RFC 9116 uses the OpenPGP
          cleartext signature framework: <Code>gpg --clearsign security.txt</Code> writes the signed file,
          starting with <Code>-----BEGIN PGP SIGNED MESSAGE-----</Code>. The validator checks its structure,
          and verifies it when you paste the signer’s public key.
        </Text>
        <GuidanceList>
          <GuidanceItem level="SHOULD" rfc="RFC 9116 §2.3">
            Sign the file with an OpenPGP cleartext signature.
          </GuidanceItem>
          <GuidanceItem level="SHOULD" rfc="RFC 9116 §2.3, §2.5.2">
            A signed file should carry a Canonical field with the URLs it is published at, so that the
            signature vouches for the location too.
          </GuidanceItem>
          <GuidanceItem level="SHOULD NOT" rfc="RFC 9116 §2.5.2">
            If a file lists Canonical URLs and was fetched from none of them, its contents should not be
            trusted.
          </GuidanceItem>
          <GuidanceItem level="HAVE" rfc="RFC 9116 §2.3">
            Researchers have to decide themselves whether they trust the signing key: publish its fingerprint
            where they already trust you.
          </GuidanceItem>
        </GuidanceList>
      </PageSection>
    </Stack>
  );
}
