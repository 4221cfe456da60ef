import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2's defaults are argon2id, m=19 MiB, t=2, p=1: OWASP's recommended minimum.

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a malformed stored hash alike. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Does the work of a failed verification without an account to verify against, so an unknown
 * email answers in about the time of a wrong password.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hash('rfckit timing-equaliser, never a real password');
  await verifyPassword(await dummyHash, password);
  return false;
}
