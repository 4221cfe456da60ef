import { Paper, SimpleGrid, Text } from '@mantine/core';
import { suiteSummary } from '@rfckit/standards';

const summary = suiteSummary();

const counts = [
  { label: 'Cipher suites', value: summary.total, note: 'IANA-registered' },
  { label: 'High security', value: summary.high, note: 'level HIGH' },
  { label: 'Forward secrecy', value: summary.pfs, note: 'ephemeral key exchange' },
  { label: 'Recommended', value: summary.recommended, note: 'IANA Recommended = Y' },
];

/** The database counts above the tabs (spec part 2 §2), computed from the suite database itself. */
export function SuiteSummaryCard() {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Cipher suite database">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" component="dl" m={0}>
        {counts.map((count) => (
          <div key={count.label}>
            <Text component="dt" size="sm" c="dimmed">
              {count.label}
            </Text>
            <Text component="dd" m={0} fz={28} fw={700} lh={1.2} data-testid={`suite-count-${count.label}`}>
              {count.value}
            </Text>
            <Text component="dd" m={0} size="xs" c="dimmed">
              {count.note}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
