import { AppShell, Badge, NavLink, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';

import { toolNavGroups } from '../tool-pages.ts';

interface ToolNavProps {
  id: string;
  /** Open on small screens; on wide screens the sidebar is always shown. */
  opened: boolean;
  onNavigate: () => void;
}

/** The sidebar: registry groups in order, each with the tools that have a page. */
export function ToolNav({ id, opened, onNavigate }: ToolNavProps) {
  const { pathname } = useLocation();
  return (
    <AppShell.Navbar id={id} aria-label="Tools" p="sm" className="tool-nav" mod={{ collapsed: !opened }}>
      {/* native scrolling: Mantine's ScrollArea would cost first-screen bytes for no gain here */}
      <AppShell.Section grow style={{ overflowY: 'auto' }}>
        <Stack gap="md">
          {toolNavGroups.map(({ group, tools }) => (
            <div key={group}>
              <Text component="h2" size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" mb={4} mt={0}>
                {group}
              </Text>
              <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {tools.map((tool) => {
                  const active = pathname === tool.route;
                  return (
                    <li key={tool.id}>
                      <NavLink
                        component={Link}
                        to={tool.route}
                        label={tool.name}
                        active={active}
                        aria-current={active ? 'page' : undefined}
                        onClick={onNavigate}
                        rightSection={
                          tool.draft ? (
                            <Badge size="xs" color="yellow.4" c="black" variant="filled" radius="sm">
                              draft
                            </Badge>
                          ) : undefined
                        }
                      />
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </Stack>
      </AppShell.Section>
    </AppShell.Navbar>
  );
}
