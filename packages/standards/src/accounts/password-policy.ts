/**
 * Which new passwords are refused (NIST SP 800-63B §3.1.1.2): shorter than 8 characters (the
 * schemas' own check), one character repeated, on a list of commonly used or expected passwords,
 * or the account's email address or its local part. The list is zxcvbn-ts's common passwords
 * with its English common words and Wikipedia words: about 105,000 entries, compared without case.
 *
 * The dictionaries are large, so they are imported on demand: the server loads them at start,
 * the web app on the pages that set a password. Until then a new password is refused with
 * PASSWORD_MESSAGES.notReady rather than let through unchecked.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const PASSWORD_MESSAGES = {
  common: 'This password is too common and easy to guess: please choose another one',
  containsEmail: 'Password must not contain your email address',
  repeated: 'Password must not be one character repeated',
  notReady: 'The password check is still loading: please try again in a moment',
} as const;

/** A local part shorter than this is only refused as the whole password, not inside one. */
const LOCAL_PART_MIN = 3;

let commonPasswords: ReadonlySet<string> | undefined;
let strength: ZxcvbnFactory | undefined;
let loadingList: Promise<void> | undefined;
let loadingStrength: Promise<void> | undefined;

async function dictionaries() {
  const [common, english] = await Promise.all([
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  return { common, english };
}

/** Loads the common-password list (once); `newPasswordIssue` needs it. */
export function loadPasswordPolicy(): Promise<void> {
  loadingList ??= dictionaries().then(({ common, english }) => {
    commonPasswords = new Set(
      [
        ...common.dictionary['passwords-common'],
        ...english.dictionary['commonWords-en'],
        ...english.dictionary['wikipedia-en'],
      ].map((entry) => entry.toLowerCase()),
    );
  });
  return loadingList;
}

/** How many entries the loaded list holds (0 before it is loaded). */
export function commonPasswordCount(): number {
  return commonPasswords?.size ?? 0;
}

/**
 * Why a new password of at least the minimum length is refused, or undefined when it is not.
 * `email` is the account's address when known (registration, the signed-in user).
 */
export function newPasswordIssue(password: string, email?: string): string | undefined {
  if (/^(.)\1*$/su.test(password)) return PASSWORD_MESSAGES.repeated;
  const lower = password.toLowerCase();
  if (email !== undefined) {
    const address = email.trim().toLowerCase();
    const local = address.split('@')[0] ?? '';
    if (lower === address || lower === local || (local.length >= LOCAL_PART_MIN && lower.includes(local))) {
      return PASSWORD_MESSAGES.containsEmail;
    }
  }
  if (commonPasswords === undefined) return PASSWORD_MESSAGES.notReady;
  if (commonPasswords.has(lower)) return PASSWORD_MESSAGES.common;
  return undefined;
}

/** Loads zxcvbn with the same dictionaries (once), for `passwordScore`. */
export function loadPasswordStrength(): Promise<void> {
  loadingStrength ??= Promise.all([import('@zxcvbn-ts/core'), dictionaries()]).then(
    ([{ ZxcvbnFactory: Factory }, { common, english }]) => {
      strength = new Factory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      });
    },
  );
  return loadingStrength;
}

/** zxcvbn's score, 0 (too guessable) to 4 (very unguessable); undefined until loaded. */
export function passwordScore(password: string, userInputs: string[] = []): 0 | 1 | 2 | 3 | 4 | undefined {
  return strength?.check(password, userInputs).score;
}
