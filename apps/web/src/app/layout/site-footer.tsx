import { Anchor, Box, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { setConsentSettingsOpen } from '../../lib/consent.ts';
import { toolsWithPages } from '../tool-pages.ts';

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <Text component="h2" size="sm" fw={700} mt={0} mb="xs">
        {title}
      </Text>
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
        {children}
      </Stack>
    </div>
  );
}

function AppLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <li>
      <Anchor component={Link} to={to} size="sm">
        {children}
      </Anchor>
    </li>
  );
}

/** Links served by the API server, outside the single-page app. */
function ServerLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <li>
      <Anchor href={href} size="sm">
        {children}
      </Anchor>
    </li>
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <li>
      <Anchor href={href} size="sm" target="_blank" rel="noreferrer">
        {children}
      </Anchor>
    </li>
  );
}

export function SiteFooter() {
  return (
    <Box
      component="footer"
      py="xl"
      style={{
        // the navbar is fixed; keep the footer beside it like the main area
        paddingInlineStart: 'calc(var(--app-shell-navbar-offset, 0rem) + var(--mantine-spacing-md))',
        paddingInlineEnd: 'var(--mantine-spacing-md)',
        borderTop: '1px solid var(--app-shell-border-color)',
      }}
    >
      <Box maw={1200} mx="auto">
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xl">
          <Column title="Tools">
            {toolsWithPages.map((tool) => (
              <AppLink key={tool.id} to={tool.route}>
                {tool.name}
              </AppLink>
            ))}
          </Column>
          <Column title="Resources">
            <ServerLink href="/docs">API reference</ServerLink>
            <AppLink to="/privacy-policy">Privacy Policy</AppLink>
            <AppLink to="/cookie-policy">Cookie Policy</AppLink>
            <ExternalLink href="https://www.rfc-editor.org/">RFC Editor</ExternalLink>
          </Column>
          <Column title="Company">
            <AppLink to="/welcome">About</AppLink>
            <AppLink to="/privacy-policy">Privacy Policy</AppLink>
            <AppLink to="/cookie-policy">Cookie Policy</AppLink>
          </Column>
          <Column title="Support">
            <ServerLink href="/v1/health">API health</ServerLink>
            <ServerLink href="/docs">API docs</ServerLink>
            <ExternalLink href="https://www.rfc-editor.org/errata.php">RFC errata</ExternalLink>
          </Column>
        </SimpleGrid>
        <Group justify="space-between" mt="xl" gap="sm">
          <Text size="sm" c="dimmed">
            rfckit: internet-standards security configuration, checked against the RFCs.
          </Text>
          <Button type="button" variant="default" size="xs" onClick={() => setConsentSettingsOpen(true)}>
            Cookie Settings
          </Button>
        </Group>
      </Box>
    </Box>
  );
}
