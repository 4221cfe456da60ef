import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { useSession } from '../lib/session.ts';

/**
 * Signed-in pages (spec part 1 §2): a 'Loading...' spinner while a stored token is checked, and
 * /login for anonymous visitors, who come back here after signing in.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname, search, hash } = useLocation();
  if (session.status === 'loading') {
    return (
      <Center mih={240}>
        <Stack align="center" gap="xs" role="status">
          <Loader aria-hidden="true" />
          <Text>Loading...</Text>
        </Stack>
      </Center>
    );
  }
  if (session.status === 'anonymous') {
    return <Navigate to="/login" replace state={{ from: `${pathname}${search}${hash}` }} />;
  }
  return children;
}
