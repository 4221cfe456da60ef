import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { mailedLink } from './mail.ts';

export const accountPassword = 'Correct-horse-7';

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/**
 * A real account made through the API as a user would (register, the mailed verification link,
 * login). The login goes through the page's own request context, so the browser holds the
 * HttpOnly refresh cookie and the web app restores the sign-in from it on load, as after a reload.
 * For journeys whose subject is a tool rather than signing in.
 */
export async function signInThroughApi(page: Page, request: APIRequestContext, label = 'tool-user') {
  const email = uniqueEmail(label);
  const registered = await request.post('/v1/auth/register', {
    data: { email, password: accountPassword, confirmPassword: accountPassword },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const verified = await request.get(await mailedLink(email, 'verify'), { maxRedirects: 0 });
  expect(verified.status()).toBeLessThan(400);
  const login = await page.request.post('/v1/auth/login', { data: { email, password: accountPassword } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  // the web app's flag that there is a sign-in to restore; the token itself is never stored
  await page.addInitScript(() => localStorage.setItem('rfckit.signed-in', '1'));
  return { email, token };
}
