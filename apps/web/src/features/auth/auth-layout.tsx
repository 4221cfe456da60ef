import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The narrow card the signed-out screens share: a page heading, an intro line and the form. */
export function AuthLayout({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <Stack maw={460} mx="auto" py="xl" gap="md">
      <Title order={1}>{title}</Title>
      {intro !== undefined && <Text>{intro}</Text>}
      <Paper withBorder p="lg" radius="md">
        {children}
      </Paper>
    </Stack>
  );
}
