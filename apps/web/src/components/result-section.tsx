import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a result panel (under its h3), named for screen readers' region lists. */
export function ResultSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={4}>{title}</Title>
      {children}
    </Stack>
  );
}
