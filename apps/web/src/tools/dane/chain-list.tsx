import { Badge, Group, Stack, Text } from '@mantine/core';
import type { CertificateView } from '@rfckit/standards';

const day = (iso: string | null) => (iso === null ? 'unknown' : iso.slice(0, 10));

/** The certificates of a chain, leaf first, with the ones a record matched marked. */
export function ChainList({
  certificates,
  matched = [],
}: {
  certificates: readonly CertificateView[];
  matched?: readonly number[];
}) {
  return (
    <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Certificate chain">
      {certificates.map((certificate) => (
        <Stack component="li" key={certificate.index} gap={2}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {certificate.index === 0 ? 'Server certificate' : `Certificate ${certificate.index + 1} (CA)`}
            </Text>
            {matched.includes(certificate.index) && (
              <Badge color="green" variant="light" size="sm">
                Matches the record
              </Badge>
            )}
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {certificate.subject || '(no subject)'}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Issued by {certificate.issuer || '(no issuer)'} · valid {day(certificate.notBefore)} to{' '}
            {day(certificate.notAfter)}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}
