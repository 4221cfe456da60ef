import { List, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';

import { DataTable } from '../../components/data-table.tsx';

export const lastUpdated = '23 November 2026';

export function LegalPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(`${title} · rfckit`);
  return (
    <Stack gap="xl" maw={820} py="md">
      <div>
        <Title order={1}>{title}</Title>
        <Text size="sm" c="dimmed" mt={4}>
          Last updated {lastUpdated}
        </Text>
        <Text mt="md">{intro}</Text>
      </div>
      {children}
    </Stack>
  );
}

export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <List spacing={6}>
      {items.map((item, index) => (
        <List.Item key={index}>{item}</List.Item>
      ))}
    </List>
  );
}

export interface StorageRow {
  name: string;
  kind: string;
  purpose: ReactNode;
  kept: string;
}

/** Everything rfckit keeps on your device, in one table. */
export function StorageTable({ rows, caption }: { rows: StorageRow[]; caption: string }) {
  return (
    <DataTable
      label={caption}
      minWidth={560}
      verticalSpacing="sm"
      captionSide="top"
      caption={caption}
      rows={rows}
      rowKey={(row) => row.name}
      columns={[
        { header: 'Name', cell: (row) => <code>{row.name}</code>, rowHeader: true },
        { header: 'Where', cell: (row) => row.kind },
        { header: 'What it holds and why', cell: (row) => row.purpose },
        { header: 'How long', cell: (row) => row.kept },
      ]}
    />
  );
}

/** The rows both policies share, so they cannot drift apart. */
export const browserStorageRows: StorageRow[] = [
  {
    name: 'rfckit.theme',
    kind: 'Local storage',
    purpose: (
      <>
        <code>light</code> or <code>dark</code>: the theme you picked with the header toggle. Until you pick
        one, rfckit follows your device setting and stores nothing.
      </>
    ),
    kept: 'Until you clear your browser storage',
  },
  {
    name: 'rfckit.cookie-consent',
    kind: 'Local storage',
    purpose: (
      <>
        Your cookie choice as <code>{'{ necessary, analytics, functionality, marketing, date }'}</code>, so
        the banner does not ask again.
      </>
    ),
    kept: 'Until you change it or clear your browser storage',
  },
  {
    name: 'rfckit.signed-in',
    kind: 'Local storage',
    purpose:
      "When you sign in: the value 1, so that opening rfckit again restores your sign-in. It holds no token; the short-lived access token stays in the page's memory.",
    kept: 'Until you sign out',
  },
  {
    name: 'Refresh-token cookie',
    kind: 'Cookie (HttpOnly, Secure, SameSite=Strict, path /v1/auth)',
    purpose:
      'When you sign in: lets the API issue a new access token so you stay signed in. Page scripts cannot read it and the browser sends it only to the sign-in endpoints.',
    kept: 'Until you sign out or the session expires; replaced on every use',
  },
];
