import { lazy } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';

import { NotFoundPage } from '../features/not-found/not-found-page.tsx';
import { WelcomePage } from '../features/welcome/welcome-page.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { AnonymousOnly, RequireAuth } from './require-auth.tsx';
import { toolNavGroups, toolPages, toolsWithPages } from './tool-pages.ts';

const PrivacyPolicyPage = lazy(() => import('../features/legal/privacy-policy-page.tsx'));
const CookiePolicyPage = lazy(() => import('../features/legal/cookie-policy-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const RegisterPage = lazy(() => import('../features/auth/register-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const ProfilePage = lazy(() => import('../features/account/profile-page.tsx'));
const BillingPage = lazy(() => import('../features/account/billing-page.tsx'));
const ActivityPage = lazy(() => import('../features/account/activity-page.tsx'));
const OrganisationPage = lazy(() => import('../features/account/organisation-page.tsx'));
const InvitationPage = lazy(() => import('../features/account/invitation-page.tsx'));
const ApiKeysPage = lazy(() => import('../features/account/api-keys-page.tsx'));

/** One route per registry tool that has a page, at the registry's route; every tool needs a signed-in user. */
export const toolRoutes: RouteObject[] = toolsWithPages.flatMap((tool) => {
  const Page = toolPages[tool.id];
  return Page
    ? [
        {
          path: tool.route,
          element: (
            <RequireAuth>
              <Page />
            </RequireAuth>
          ),
        },
      ]
    : [];
});

export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <Navigate to="/welcome" replace /> },
      { path: '/welcome', element: <WelcomePage toolGroups={toolNavGroups} /> },
      { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
      { path: '/cookie-policy', element: <CookiePolicyPage /> },
      {
        path: '/login',
        element: (
          <AnonymousOnly>
            <LoginPage />
          </AnonymousOnly>
        ),
      },
      {
        path: '/register',
        element: (
          <AnonymousOnly>
            <RegisterPage />
          </AnonymousOnly>
        ),
      },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/invitation', element: <InvitationPage /> },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <DashboardPage toolGroups={toolNavGroups} />
          </RequireAuth>
        ),
      },
      {
        path: '/profile',
        element: (
          <RequireAuth>
            <ProfilePage />
          </RequireAuth>
        ),
      },
      {
        path: '/organisation',
        element: (
          <RequireAuth>
            <OrganisationPage />
          </RequireAuth>
        ),
      },
      {
        path: '/api-keys',
        element: (
          <RequireAuth>
            <ApiKeysPage />
          </RequireAuth>
        ),
      },
      {
        path: '/activity',
        element: (
          <RequireAuth>
            <ActivityPage />
          </RequireAuth>
        ),
      },
      {
        path: '/billing',
        element: (
          <RequireAuth>
            <BillingPage />
          </RequireAuth>
        ),
      },
      ...toolRoutes,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The route table rendered under a BrowserRouter. The declarative router is used, not a data router:
 * rfckit loads data with TanStack Query, and the data router would add about 13 KB gzip to the first screen.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
