import { Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';

import { displayName, roleLabel, signOut, type SessionUser } from '../../lib/session.ts';

/** The signed-in user's menu: name or email, role, their pages and Logout (spec part 1 §2). */
export function AccountMenu({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const name = displayName(user);
  const role = roleLabel(user.role);

  // signOut never fails (the local session ends whatever the server says): the click need not wait
  async function logout() {
    await signOut();
    // nothing of this account's data stays cached for the next one
    queryClient.clear();
    await navigate('/login');
  }

  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu: ${name}, ${role}`} px="xs" py={4}>
          <Stack gap={0} align="flex-end">
            {/* a phone's header also holds the burger, the logo and the theme toggle */}
            <Text size="sm" fw={600} lh={1.3} maw={{ base: 130, sm: 200 }} truncate="end">
              {name}
            </Text>
            <Text size="xs" c="dimmed" lh={1.3}>
              {role}
            </Text>
          </Stack>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/dashboard">
          Dashboard
        </Menu.Item>
        <Menu.Item component={Link} to="/profile">
          Profile
        </Menu.Item>
        <Menu.Item component={Link} to="/organisation">
          Organisation
        </Menu.Item>
        <Menu.Item component={Link} to="/billing">
          Billing
        </Menu.Item>
        <Menu.Item component={Link} to="/api-keys">
          API keys
        </Menu.Item>
        <Menu.Item component={Link} to="/activity">
          Activity
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item onClick={() => void logout()}>Logout</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
