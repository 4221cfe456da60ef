/**
 * The access token (spec part 1 §4, docs/architecture.md §8): kept in local storage under `rfckit.token`; the
 * refresh token is never readable here, it lives in the server's HttpOnly cookie.
 *
 * Renewal is single-flight. The server rotates the refresh token on every use and treats a second
 * use of the same token as theft (it revokes the whole sign-in), so concurrent 401s share one
 * `POST /v1/auth/refresh`, and tabs take turns through a Web Lock where the browser has them.
 */
import { readString, removeItem, storageKeys, writeString } from './storage.ts';

/** Origin of the API; empty means the page's own origin (the server serves both). */
export const apiBaseUrl: string = import.meta.env.VITE_API_BASE_URL ?? '';

const REFRESH_LOCK = 'rfckit.token-refresh';

// used only when storage refuses the write (private mode, quota): the session then lasts this page view
let unsaved: string | null = null;
let renewal: Promise<string | null> | null = null;
const clearedListeners = new Set<() => void>();

export function readAccessToken(): string | null {
  return readString(storageKeys.token) ?? unsaved;
}

export function storeAccessToken(token: string): void {
  unsaved = writeString(storageKeys.token, token) ? null : token;
}

export function clearAccessToken(): void {
  unsaved = null;
  removeItem(storageKeys.token);
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
    // another tab may have renewed (or signed out) while this one waited for the lock
    const current = readAccessToken();
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
  const current = readAccessToken();
  // renewed since that call was sent, or signed out meanwhile: no refresh needed
  if (renewal === null && current !== staleToken) return Promise.resolve(current);
  renewal ??= renew(staleToken).finally(() => {
    renewal = null;
  });
  return renewal;
}

/**
 * The user id (`sub`) the stored access token names, read without verifying it: only to keep
 * each user's client-side rate-limit counters apart. Null when signed out or unreadable.
 */
export function accessTokenSubject(): string | null {
  const token = readAccessToken();
  const payload = token?.split('.')[1];
  if (payload === undefined) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub: unknown = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
