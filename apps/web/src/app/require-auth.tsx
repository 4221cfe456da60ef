import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { returnPath, useSession } from '../lib/session.ts';

/** Spec part 1 §2: 'Loading...' while a stored sign-in is checked. */
function SessionLoading() {
  return (
    <Center mih={240}>
      <Stack align="center" gap="xs" role="status">
        <Loader aria-hidden="true" />
        <Text>Loading...</Text>
      </Stack>
    </Center>
  );
}

/**
 * Signed-in pages (spec part 1 §2): a 'Loading...' spinner while a stored token is checked, and
 * /login for anonymous visitors, who come back here after signing in.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname, search, hash } = useLocation();
  if (session.status === 'loading') return <SessionLoading />;
  if (session.status === 'anonymous') {
    return <Navigate to="/login" replace state={{ from: `${pathname}${search}${hash}` }} />;
  }
  return children;
}

/**
 * The sign-in and registration forms are for anonymous visitors: a signed-in user goes on to the
 * page they came for, else the dashboard, as a successful sign-in would take them.
 */
export function AnonymousOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <SessionLoading />;
  if (session.status === 'authenticated') {
    return <Navigate to={returnPath(location.state) ?? '/dashboard'} replace />;
  }
  return children;
}
