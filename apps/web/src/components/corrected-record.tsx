import { List, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import type { CorrectedRecord } from '@rfckit/standards';

import { CopyBlock } from './copy-block.tsx';

/**
 * The record with the mechanical fixes of its findings applied, to copy, and what changed: a
 * validator shows it under its findings when the answer carries one.
 */
export function CorrectedRecordView({
  corrected,
  heading = 4,
}: {
  corrected: CorrectedRecord;
  heading?: TitleOrder;
}) {
  return (
    <Stack gap="xs" component="section" aria-label="Corrected record">
      <Title order={heading} size="h5">
        Corrected record
      </Title>
      <Text size="sm">
        The record with the fixes that need no decision of yours applied. Read what changed before you publish
        it.
      </Text>
      <CopyBlock
        label="Record to publish"
        value={corrected.record}
        copyAriaLabel="Copy the corrected record"
        ariaLabel="Corrected record"
        testId="corrected-record"
      >
        <List size="sm" spacing={4} aria-label="What changed">
          {corrected.changes.map((change) => (
            <List.Item key={change}>{change}</List.Item>
          ))}
        </List>
      </CopyBlock>
    </Stack>
  );
}
