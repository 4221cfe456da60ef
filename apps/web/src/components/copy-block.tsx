import { Code, Group, Stack, Text, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';

import { CopyButton } from './copy-button.tsx';

interface CopyBlockProps {
  /** The heading above the block, e.g. 'TXT record'. */
  label: ReactNode;
  value: string;
  /** The copy button's visible text. */
  copyLabel?: string;
  /** The copy button's accessible name when its text alone is ambiguous. */
  copyAriaLabel?: string;
  copySize?: ButtonProps['size'];
  /** The block's own accessible name. */
  ariaLabel?: string;
  testId?: string;
  /** A note under the block. */
  children?: ReactNode;
}

/** A generated value to publish: its label, a copy button, and the value in monospace. */
export function CopyBlock({
  label,
  value,
  copyLabel = 'Copy',
  copyAriaLabel,
  copySize,
  ariaLabel,
  testId,
  children,
}: CopyBlockProps) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="center" gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value} label={copyLabel} ariaLabel={copyAriaLabel} size={copySize} />
      </Group>
      <Code block className="mono-block" aria-label={ariaLabel} data-testid={testId}>
        {value}
      </Code>
      {children}
    </Stack>
  );
}
