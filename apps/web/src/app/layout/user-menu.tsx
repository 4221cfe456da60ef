import { Button } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';

import { useSession } from '../../lib/session.ts';
import { PageErrorBoundary } from './page-error-boundary.tsx';

// the menu's popover machinery is needed only once signed in: keep it out of the first screen
const AccountMenu = lazy(() =>
  import('./account-menu.tsx').then((module) => ({ default: module.AccountMenu })),
);

/** The header's account corner: the user menu when signed in, a 'Sign in' link otherwise. */
export function UserMenu() {
  const session = useSession();
  if (session.status === 'loading') return null;
  if (session.status === 'anonymous') {
    return (
      <Button component={Link} to="/login" variant="default">
        Sign in
      </Button>
    );
  }
  return (
    <PageErrorBoundary fallback={null}>
      <Suspense fallback={null}>
        <AccountMenu user={session.user} />
      </Suspense>
    </PageErrorBoundary>
  );
}
