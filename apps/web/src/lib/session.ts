/**
 * The signed-in state (spec part 1 §4): anonymous, loading (a sign-in is being restored through the
 * refresh cookie and checked with the profile call) or authenticated (a token and a user). The
 * access token lives in memory only (access-token.ts). Sign-out always ends the local session,
 * whatever the server answers.
 */
import { useSyncExternalStore } from 'react';

import {
  clearAccessToken,
  mayRestoreSession,
  onAccessTokenExpired,
  readAccessToken,
  restoreAccessToken,
  storeAccessToken,
} from './access-token.ts';
import { api, ApiError } from './api.ts';
import { storageKeys } from './storage.ts';

export type Role = 'admin' | 'member';

/** The user of the sign-in answer and of `GET /v1/auth/profile`. */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  role: Role;
  organisation: { id: string; name: string };
  emailVerified: boolean;
}

/** `GET /v1/auth/profile`'s user: the session user plus the profile fields. */
export interface Profile extends SessionUser {
  company: string | null;
  phone: string | null;
  /** A new address waiting for its confirmation link. */
  pendingEmail: string | null;
  createdAt: string;
}

export type SessionState =
  | { status: 'loading'; user: null }
  | { status: 'anonymous'; user: null }
  | { status: 'authenticated'; user: SessionUser };

export const NO_TOKEN_MESSAGE = 'No authentication token received';

const LOADING: SessionState = { status: 'loading', user: null };
const ANONYMOUS: SessionState = { status: 'anonymous', user: null };

// null until the first subscriber starts the session
let state: SessionState | null = null;
const listeners = new Set<() => void>();

function set(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

function snapshot(): SessionState {
  return state ?? (readAccessToken() === null && !mayRestoreSession() ? ANONYMOUS : LOADING);
}

/**
 * Restores a sign-in (a new access token from the refresh cookie) and checks it with the profile
 * call; if either fails the session is cleared.
 */
function startSession(): void {
  if (state !== null) return;
  if (readAccessToken() === null && !mayRestoreSession()) {
    state = ANONYMOUS;
    return;
  }
  state = LOADING;
  restoreAccessToken()
    .then((token) => {
      if (token === null) throw new ApiError('No session to restore', 401, 'UNAUTHORIZED');
      return api.get<{ user: Profile }>('/v1/auth/profile');
    })
    .then(
      ({ user }) => {
        // a sign-out or another sign-in may have happened meanwhile
        if (state === LOADING) set({ status: 'authenticated', user });
      },
      () => {
        if (state !== LOADING) return;
        clearAccessToken();
        set(ANONYMOUS);
      },
    );
}

onAccessTokenExpired(() => {
  if (state?.status !== 'anonymous') set(ANONYMOUS);
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  startSession();
  // another tab signed in (this one restores the sign-in) or out (this one forgets its token)
  const onStorage = (event: StorageEvent) => {
    if (event.key !== storageKeys.signedIn && event.key !== null) return;
    if (!mayRestoreSession()) {
      if (readAccessToken() !== null) clearAccessToken();
      if (state?.status !== 'anonymous') set(ANONYMOUS);
    } else if (state?.status === 'anonymous') {
      state = null;
      startSession();
      for (const notify of listeners) notify();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

interface LoginAnswer {
  token?: string;
  sessionToken?: string;
  user: SessionUser;
}

/** `POST /v1/auth/login`; keeps the access token only (the refresh token stays in its cookie). */
export async function signIn(email: string, password: string): Promise<SessionUser> {
  const answer = await api.request<LoginAnswer>('/v1/auth/login', {
    method: 'POST',
    body: { email, password },
    anonymous: true,
  });
  const token = answer.token ?? answer.sessionToken;
  if (typeof token !== 'string' || token === '') {
    throw new ApiError(NO_TOKEN_MESSAGE, 200, 'NO_TOKEN');
  }
  storeAccessToken(token);
  set({ status: 'authenticated', user: answer.user });
  return answer.user;
}

/** `POST /v1/auth/logout`, then the local session ends whether or not the call succeeded. */
export async function signOut(): Promise<void> {
  try {
    await api.request('/v1/auth/logout', { method: 'POST', renew: false });
  } catch {
    // signing out locally is what matters; the server session expires on its own
  } finally {
    clearAccessToken();
    set(ANONYMOUS);
  }
}

/** After the profile changed on the server: the header and dashboard show the new name. */
export function updateSessionUser(user: SessionUser): void {
  if (state?.status === 'authenticated') set({ status: 'authenticated', user });
}

/** A password change signs out every other session and answers a fresh access token for this one. */
export function replaceAccessToken(token: string): void {
  storeAccessToken(token);
}

/** First and last name, else the email, else 'User' (spec part 1 §2). */
export function displayName(user: Pick<SessionUser, 'firstName' | 'lastName' | 'email'> | null): string {
  if (user === null) return 'User';
  const name = [user.firstName, user.lastName]
    .filter((part) => part !== null && part.trim() !== '')
    .join(' ');
  if (name !== '') return name;
  return user.email !== '' ? user.email : 'User';
}

/** 'Admin' or 'Member'; anything else reads as Member. */
export function roleLabel(role: string | null | undefined): string {
  return role === 'admin' ? 'Admin' : 'Member';
}

/** A same-app path to return to after sign-in, from the state the sign-in redirect carried. */
export function returnPath(locationState: unknown): string | null {
  if (typeof locationState !== 'object' || locationState === null) return null;
  const from = (locationState as { from?: unknown }).from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) {
    return null;
  }
  return from.startsWith('/login') ? null : from;
}
