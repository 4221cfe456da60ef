import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled section of a long page (information tabs, policies), as an `h2` landmark-friendly block. */
export function PageSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section">
      <Title order={2} size="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
