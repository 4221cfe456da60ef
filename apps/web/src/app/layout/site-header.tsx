import { AppShell, Burger, Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';

import { ShieldIcon } from '../../components/icons.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import { UserMenu } from './user-menu.tsx';

interface SiteHeaderProps {
  navOpened: boolean;
  onToggleNav: () => void;
  navId: string;
}

export function SiteHeader({ navOpened, onToggleNav, navId }: SiteHeaderProps) {
  return (
    <AppShell.Header>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Burger
            opened={navOpened}
            onClick={onToggleNav}
            hiddenFrom="sm"
            size="sm"
            aria-label="Toggle navigation"
            aria-expanded={navOpened}
            aria-controls={navId}
          />
          <UnstyledButton component={Link} to="/welcome">
            <Group gap={8} wrap="nowrap">
              <ShieldIcon size={26} color="var(--mantine-primary-color-filled)" />
              <Text fw={750} fz="xl" lh={1}>
                rfckit
              </Text>
              <Text size="sm" c="dimmed" visibleFrom="md" lh={1}>
                RFC compliance standards tool
              </Text>
            </Group>
          </UnstyledButton>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <UserMenu />
          <ThemeToggle />
        </Group>
      </Group>
    </AppShell.Header>
  );
}
