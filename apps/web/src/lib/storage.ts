/**
 * Every localStorage key the web app uses. The privacy and cookie policies list the same keys;
 * change both together.
 */
export const storageKeys = {
  /** 'light' | 'dark', written by Mantine's colour-scheme manager and read by public/theme-init.js. */
  theme: 'rfckit.theme',
  /** JSON consent record, see lib/consent.ts. */
  cookieConsent: 'rfckit.cookie-consent',
  /**
   * '1' while this browser has a sign-in the refresh cookie can restore: no token, only whether to
   * try, so that anonymous visitors do not spend a refresh call (and the auth rate limit) per page.
   */
  signedIn: 'rfckit.signed-in',
  /** Where older versions kept the access token; removed on start. */
  legacyToken: 'rfckit.token',
} as const;

// Storage can throw (Safari private mode, disabled storage, quota): the app then simply forgets.

export function readString(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string): boolean {
  try {
    window.localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeItem(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // nothing stored, nothing to remove
  }
}

/** Reads JSON and lets `parse` vet its shape; anything malformed reads as absent. */
export function readJson<T>(key: string, parse: (value: unknown) => T | null): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return parse(JSON.parse(raw));
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): boolean {
  return writeString(key, JSON.stringify(value));
}
