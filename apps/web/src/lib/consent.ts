import { useSyncExternalStore } from 'react';

import { readString, storageKeys, writeJson } from './storage.ts';

/** The cookie-consent record of spec part 1 §3, stored under `rfckit.cookie-consent`. */
export interface Consent {
  necessary: true;
  analytics: boolean;
  functionality: boolean;
  marketing: boolean;
  /** ISO 8601 time the choice was made. */
  date: string;
}

export type ConsentChoice = Pick<Consent, 'analytics' | 'functionality' | 'marketing'>;

function parseConsent(value: unknown): Consent | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (
    v.necessary !== true ||
    typeof v.analytics !== 'boolean' ||
    typeof v.functionality !== 'boolean' ||
    typeof v.marketing !== 'boolean' ||
    typeof v.date !== 'string'
  ) {
    return null;
  }
  return {
    necessary: true,
    analytics: v.analytics,
    functionality: v.functionality,
    marketing: v.marketing,
    date: v.date,
  };
}

function parseStored(raw: string): Consent | null {
  try {
    return parseConsent(JSON.parse(raw));
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
// useSyncExternalStore needs a stable snapshot: parse again only when the stored text changed.
let cached: { raw: string | null; consent: Consent | null } = { raw: null, consent: null };
// the last choice of this page view, kept in case storage is unavailable
let unsaved: Consent | null = null;

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKeys.cookieConsent || event.key === null) notify();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function readConsent(): Consent | null {
  const raw = readString(storageKeys.cookieConsent);
  if (raw === null) return unsaved;
  if (raw !== cached.raw) cached = { raw, consent: parseStored(raw) };
  return cached.consent;
}

export function saveConsent(choice: ConsentChoice, now: Date = new Date()): Consent {
  const consent: Consent = { necessary: true, ...choice, date: now.toISOString() };
  unsaved = writeJson(storageKeys.cookieConsent, consent) ? null : consent;
  notify();
  return consent;
}

export const rejectAllChoice: ConsentChoice = { analytics: false, functionality: false, marketing: false };
export const acceptAllChoice: ConsentChoice = { analytics: true, functionality: true, marketing: true };

/**
 * The visitor's stored consent, or null before they choose. Anything optional (analytics,
 * marketing, functionality extras) must check this before it runs; today rfckit runs none.
 */
export function useConsent(): Consent | null {
  return useSyncExternalStore(subscribe, readConsent, () => null);
}

// The settings dialog can be opened from the banner, the footer and the cookie policy.
/** 'unused' until first opened, so the dialog's code can be loaded only on demand. */
export type ConsentSettingsState = 'unused' | 'open' | 'closed';

let settingsState: ConsentSettingsState = 'unused';
let settingsOpener: Element | null = null;
const settingsListeners = new Set<() => void>();

function subscribeSettings(listener: () => void): () => void {
  settingsListeners.add(listener);
  return () => settingsListeners.delete(listener);
}

export function setConsentSettingsOpen(open: boolean): void {
  if (open === (settingsState === 'open')) return;
  // remember who opened the dialog, so focus can go back there when it closes
  if (open) settingsOpener = document.activeElement;
  settingsState = open ? 'open' : 'closed';
  for (const listener of settingsListeners) listener();
}

/** The element that had focus when the settings dialog opened, if it is still on the page. */
export function consentSettingsOpener(): HTMLElement | null {
  return settingsOpener instanceof HTMLElement && settingsOpener.isConnected ? settingsOpener : null;
}

export function useConsentSettingsState(): ConsentSettingsState {
  return useSyncExternalStore(
    subscribeSettings,
    () => settingsState,
    () => 'unused',
  );
}
