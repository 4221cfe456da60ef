import type { Kysely } from 'kysely';
import { findLiveSessionFamily } from '../db/sessions.ts';
import type { Database } from '../db/schema.ts';

/**
 * How long a process trusts its last look at a session. Sign-out, a password change or reset,
 * refresh-token reuse and the user's deletion end access within this time everywhere, and at once
 * wherever the revocation message arrives (the process that revoked, and all of them with Redis).
 */
export const SESSION_CHECK_TTL_MS = 5_000;
const CACHE_SIZE = 10_000;

interface Verdict {
  live: boolean;
  userId: string;
  familyId: string | undefined;
  expiresAt: number;
}

export interface SessionCheckerOptions {
  now?: () => number;
}

/** Whether the sign-in an access token belongs to still exists, one indexed lookup per session per 5 s. */
export class SessionChecker {
  private readonly db: Kysely<Database>;
  private readonly now: () => number;
  private readonly verdicts = new Map<string, Verdict>();
  /** Bumped by every drop, so a lookup that raced a revocation does not cache what it read before it. */
  private drops = 0;

  constructor(db: Kysely<Database>, options: SessionCheckerOptions = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  async isLive(sessionId: string, userId: string): Promise<boolean> {
    const now = this.now();
    const cached = this.verdicts.get(sessionId);
    if (cached !== undefined && cached.expiresAt > now && cached.userId === userId) return cached.live;
    if (cached !== undefined) this.verdicts.delete(sessionId);
    const generation = this.drops;
    const familyId = await findLiveSessionFamily(this.db, sessionId, userId, new Date(now));
    const live = familyId !== undefined;
    if (generation === this.drops) {
      if (this.verdicts.size >= CACHE_SIZE) {
        const oldest = this.verdicts.keys().next();
        if (oldest.done !== true) this.verdicts.delete(oldest.value);
      }
      this.verdicts.set(sessionId, { live, userId, familyId, expiresAt: now + SESSION_CHECK_TTL_MS });
    }
    return live;
  }

  /** Forgets what is known of these sign-ins (families) and users: their next request asks the database. */
  drop(target: { families?: readonly string[]; users?: readonly string[] }): void {
    this.drops += 1;
    const families = new Set(target.families ?? []);
    const users = new Set(target.users ?? []);
    for (const [id, verdict] of this.verdicts) {
      if (users.has(verdict.userId) || (verdict.familyId !== undefined && families.has(verdict.familyId))) {
        this.verdicts.delete(id);
      }
    }
  }
}
