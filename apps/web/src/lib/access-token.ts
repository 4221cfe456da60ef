/**
 * The access token (spec part 1 §4, docs/architecture.md §8), held in memory only: a script injected into the
 * page finds no token in storage to carry away. The refresh token is never readable here either:
 * it lives in the server's HttpOnly cookie, and a page load gets a fresh access token with it
 * (`restoreAccessToken`). Local storage keeps only a flag saying whether there is a sign-in to
 * restore.
 *
 * Renewal is single-flight. The server rotates the refresh token on every use and treats a second
 * use of the same token as theft (it revokes the whole sign-in), so concurrent 401s share one
 * `POST /v1/auth/refresh`, and tabs take turns through a Web Lock where the browser has them.
 */
import { readString, removeItem, storageKeys, writeString } from './storage.ts';

/** Origin of the API; empty means the page's own origin (the server serves both). */
export const apiBaseUrl: string = import.meta.env.VITE_API_BASE_URL ?? '';

const REFRESH_LOCK = 'rfckit.token-refresh';

// an access token left in storage by an older version must not outlive it there
removeItem(storageKeys.legacyToken);

let current: string | null = null;
let renewal: Promise<string | null> | null = null;
const clearedListeners = new Set<() => void>();

export function readAccessToken(): string | null {
  return current;
}

export function storeAccessToken(token: string): void {
  current = token;
  writeString(storageKeys.signedIn, '1');
}

export function clearAccessToken(): void {
  current = null;
  removeItem(storageKeys.signedIn);
}

/** Whether this browser signed in and may restore the sign-in with its refresh cookie. */
export function mayRestoreSession(): boolean {
  return readString(storageKeys.signedIn) === '1';
}

/** Called when a failed renewal ends the session, so the signed-in state can follow. */
export function onAccessTokenExpired(listener: () => void): () => void {
  clearedListeners.add(listener);
  return () => clearedListeners.delete(listener);
}

async function postRefresh(): Promise<string | null> {
  try {
    const response = await fetch(`${apiBaseUrl}/v1/auth/refresh`, {
      method: 'POST',
      headers: { Accept: 'application/json' },
      credentials: 'include',
    });
    if (!response.ok) return null;
    const payload: unknown = await response.json();
    if (typeof payload !== 'object' || payload === null) return null;
    const data = (payload as { data?: { token?: unknown } }).data;
    return typeof data?.token === 'string' && data.token !== '' ? data.token : null;
  } catch {
    return null;
  }
}

async function renew(staleToken: string): Promise<string | null> {
  const attempt = async (): Promise<string | null> => {
    // renewed (or signed out) here while this call waited for the lock
    if (current !== staleToken) return current;
    return postRefresh();
  };
  const locks = 'locks' in navigator ? navigator.locks : undefined;
  const token = locks ? await locks.request(REFRESH_LOCK, attempt) : await attempt();
  if (token === null) {
    clearAccessToken();
    for (const listener of clearedListeners) listener();
  } else {
    storeAccessToken(token);
  }
  return token;
}

/**
 * A fresh access token in place of `staleToken`, which a call just had refused with 401; null when
 * the session cannot be renewed (it is then cleared). Calls arriving while a renewal runs share it.
 */
export function renewAccessToken(staleToken: string): Promise<string | null> {
  // renewed since that call was sent, or signed out meanwhile: no refresh needed
  if (renewal === null && current !== staleToken) return Promise.resolve(current);
  renewal ??= renew(staleToken).finally(() => {
    renewal = null;
  });
  return renewal;
}

/**
 * On page load: a new access token from the refresh cookie, when this browser has a sign-in to
 * restore; null (and the flag cleared) when it has none or the cookie no longer works.
 */
export function restoreAccessToken(): Promise<string | null> {
  if (current !== null) return Promise.resolve(current);
  if (!mayRestoreSession()) return Promise.resolve(null);
  renewal ??= (async () => {
    const locks = 'locks' in navigator ? navigator.locks : undefined;
    const token = locks ? await locks.request(REFRESH_LOCK, postRefresh) : await postRefresh();
    if (token === null) clearAccessToken();
    else storeAccessToken(token);
    return token;
  })().finally(() => {
    renewal = null;
  });
  return renewal;
}

/**
 * The user id (`sub`) the access token names, read without verifying it: only to keep
 * each user's client-side rate-limit counters apart. Null when signed out or unreadable.
 */
export function accessTokenSubject(): string | null {
  const payload = current?.split('.')[1];
  if (payload === undefined) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub: unknown = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
