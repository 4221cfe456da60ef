import { AppShell, Box, Center, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';

import {
  consentSettingsOpener,
  setConsentSettingsOpen,
  useConsent,
  useConsentSettingsState,
} from '../../lib/consent.ts';
import { CookieBanner } from '../consent/cookie-banner.tsx';
import { RateLimitToasts } from '../rate-limit-toast.tsx';
import { PageErrorBoundary } from './page-error-boundary.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { ToolNav } from './tool-nav.tsx';

// The dialog is needed only on request; keep Modal and Switch out of the first screen.
const CookieSettingsModal = lazy(() =>
  import('../consent/cookie-settings-modal.tsx').then((module) => ({ default: module.CookieSettingsModal })),
);

const navId = 'tool-navigation';

function PageLoader() {
  return (
    <Center mih={240} role="status" aria-label="Loading page">
      <Loader aria-hidden="true" />
    </Center>
  );
}

export function AppLayout() {
  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const consent = useConsent();
  const settingsState = useConsentSettingsState();
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const firstPath = useRef(pathname);

  // After client-side navigation, start the new page at the top and move focus there for screen readers.
  // Redirects (REPLACE, e.g. / to /welcome) are not the user's navigation: leave focus alone.
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    if (navigationType === 'REPLACE') return;
    window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname, navigationType]);

  const focusMain = () => mainRef.current?.focus({ preventScroll: true });

  return (
    <>
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <RateLimitToasts />
      {consent === null && <CookieBanner onDecided={focusMain} />}
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
        padding="md"
      >
        <SiteHeader navOpened={navOpened} onToggleNav={toggleNav} navId={navId} />
        <ToolNav id={navId} opened={navOpened} onNavigate={closeNav} />
        <AppShell.Main id="main-content" ref={mainRef} tabIndex={-1}>
          <Box maw={1200} mx="auto" pb="xl">
            <PageErrorBoundary key={pathname}>
              <Suspense fallback={<PageLoader />}>
                <Outlet />
              </Suspense>
            </PageErrorBoundary>
          </Box>
        </AppShell.Main>
        <SiteFooter />
      </AppShell>
      {settingsState !== 'unused' && (
        // if the dialog's code cannot load (offline), the rest of the app keeps working
        <PageErrorBoundary fallback={null}>
          <Suspense fallback={null}>
            <CookieSettingsModal
              opened={settingsState === 'open'}
              onClose={() => setConsentSettingsOpen(false)}
              onSaved={() => setConsentSettingsOpen(false)}
              onClosed={() => {
                // back to the button that opened it; opened from the banner, that button is gone
                const opener = consentSettingsOpener();
                if (opener) opener.focus();
                else focusMain();
              }}
            />
          </Suspense>
        </PageErrorBoundary>
      )}
    </>
  );
}
