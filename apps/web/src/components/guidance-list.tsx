import { Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

import { RequirementBadge } from './requirement-badge.tsx';
import type { Requirement, RequirementSynonym } from './requirement-levels.ts';

export function GuidanceList({ children }: { children: ReactNode }) {
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
      {children}
    </Stack>
  );
}

interface GuidanceItemProps {
  level: Requirement;
  /** Source wording when it differs from the level, e.g. RECOMMENDED. */
  levelText?: RequirementSynonym;
  /** Section cited, e.g. 'RFC 4034 §2.1.2'. */
  rfc?: string;
  children: ReactNode;
}

/** One guidance line on an Information tab: requirement badge, statement and citation. */
export function GuidanceItem({ level, levelText, rfc, children }: GuidanceItemProps) {
  return (
    <Group component="li" gap="sm" wrap="nowrap" align="flex-start">
      <div style={{ minWidth: 104, paddingTop: 2 }}>
        <RequirementBadge level={level} text={levelText} />
      </div>
      <div>
        <Text size="sm">{children}</Text>
        {rfc && (
          <Text size="xs" c="dimmed" mt={2}>
            {rfc}
          </Text>
        )}
      </div>
    </Group>
  );
}
