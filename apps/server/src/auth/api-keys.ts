import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { API_KEY_PREFIX, API_KEY_SHOWN_LENGTH, isApiKeyFormat } from '@rfckit/standards';
import { findActiveApiKeyByHash, touchApiKey } from '../db/api-keys.ts';
import type { Database } from '../db/schema.ts';
import { hashToken } from './tokens.ts';

/**
 * How long a verified key is trusted without asking the database again. A revocation takes effect
 * at once in the process that served it (and in every other one when the revocation reaches it
 * through Redis), and within this time everywhere.
 */
export const API_KEY_CACHE_TTL_MS = 5_000;
/** `last_used_at` is written at most this often per key and process, not on every call. */
export const API_KEY_TOUCH_INTERVAL_MS = 60_000;
const CACHE_SIZE = 10_000;

/** A new key: shown once to its creator; only the hash and the short prefix are stored. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_SHOWN_LENGTH), hash: hashToken(key) };
}

/** The organisation key that authenticated a request. */
export interface VerifiedApiKey {
  id: string;
  organisationId: string;
  name: string;
}

export interface ApiKeyVerifierOptions {
  onTouchError?: (error: unknown) => void;
  /** Called by `forget`: tells the other processes (they call `drop`). */
  onForget?: (id: string) => void;
  now?: () => number;
}

/**
 * Checks presented keys against the database (one lookup through the unique index on key_hash)
 * and keeps the verified ones in memory for API_KEY_CACHE_TTL_MS, keyed by hash so the plain key
 * is held nowhere. Unknown and revoked keys are not cached: each costs that one indexed lookup.
 */
export class ApiKeyVerifier {
  private readonly db: Kysely<Database>;
  private readonly onTouchError: (error: unknown) => void;
  private readonly onForget: (id: string) => void;
  private readonly now: () => number;
  private readonly verified = new Map<string, { key: VerifiedApiKey; expiresAt: number }>();
  /** When this process last wrote (or saw) each key's last_used_at. */
  private readonly touchedAt = new Map<string, number>();
  private readonly writes = new Set<Promise<void>>();
  /** Bumped by every revocation, so a lookup that raced one does not cache what it read before it. */
  private revocations = 0;

  constructor(db: Kysely<Database>, options: ApiKeyVerifierOptions = {}) {
    this.db = db;
    this.onTouchError = options.onTouchError ?? (() => {});
    this.onForget = options.onForget ?? (() => {});
    this.now = options.now ?? Date.now;
  }

  /** The key's identity, or undefined when it is malformed, unknown or revoked. */
  async verify(token: string): Promise<VerifiedApiKey | undefined> {
    if (!isApiKeyFormat(token)) return undefined;
    const hash = hashToken(token);
    const now = this.now();
    const cached = this.verified.get(hash);
    if (cached !== undefined && cached.expiresAt > now) {
      this.touch(cached.key.id, now);
      return cached.key;
    }
    if (cached !== undefined) this.verified.delete(hash);

    const generation = this.revocations;
    const row = await findActiveApiKeyByHash(this.db, hash);
    if (row === undefined) return undefined;
    const key: VerifiedApiKey = { id: row.id, organisationId: row.organisation_id, name: row.name };
    if (generation === this.revocations) this.remember(hash, key, now);
    // another process may have written it within the interval
    if (row.last_used_at !== null) {
      const seen = Date.parse(row.last_used_at);
      if (seen > (this.touchedAt.get(key.id) ?? 0)) this.touchedAt.set(key.id, seen);
    }
    this.touch(key.id, now);
    return key;
  }

  /** A key was revoked here: drops it from the cache and tells the other processes. */
  forget(id: string): void {
    this.drop(id);
    this.onForget(id);
  }

  /** Drops a revoked key from the cache: its next use in this process is refused. */
  drop(id: string): void {
    this.revocations += 1;
    for (const [hash, entry] of this.verified) if (entry.key.id === id) this.verified.delete(hash);
    this.touchedAt.delete(id);
  }

  /** Waits for the last_used_at writes under way (before the database closes). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.writes]);
  }

  private remember(hash: string, key: VerifiedApiKey, now: number): void {
    if (this.verified.size >= CACHE_SIZE) {
      const oldest = this.verified.keys().next();
      if (oldest.done !== true) this.verified.delete(oldest.value);
    }
    this.verified.set(hash, { key, expiresAt: now + API_KEY_CACHE_TTL_MS });
  }

  private touch(id: string, now: number): void {
    if (now - (this.touchedAt.get(id) ?? 0) < API_KEY_TOUCH_INTERVAL_MS) return;
    if (this.touchedAt.size >= CACHE_SIZE) {
      const oldest = this.touchedAt.keys().next();
      if (oldest.done !== true) this.touchedAt.delete(oldest.value);
    }
    this.touchedAt.set(id, now);
    // the request does not wait for the write; a failure only leaves last_used_at older
    const write = touchApiKey(this.db, id, new Date(now)).catch(this.onTouchError);
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}
