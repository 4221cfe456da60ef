import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '../db/schema.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const JWT_ISSUER = 'rfckit';
export const JWT_AUDIENCE = 'rfckit-api';
const CLOCK_TOLERANCE_SECONDS = 5;
const VERIFIED_CACHE_SIZE = 10_000;

/** Who a valid access token speaks for. */
export interface AccessClaims {
  userId: string;
  organisationId: string;
  role: Role;
  sessionId: string;
}

/** 256 random bits, base64url: refresh tokens and mail-link tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 (hex) of a token: what the database keeps instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type AccessTokenFailure = 'expired' | 'invalid';

export class AccessTokenError extends Error {
  readonly reason: AccessTokenFailure;

  constructor(reason: AccessTokenFailure, options?: ErrorOptions) {
    super(reason === 'expired' ? 'access token expired' : 'access token invalid', options);
    this.name = 'AccessTokenError';
    this.reason = reason;
  }
}

export interface AccessTokens {
  sign(claims: AccessClaims, now?: Date): Promise<string>;
  /** Throws AccessTokenError. `ignoreExpiry` serves logout, which may use a stale token. */
  verify(token: string, options?: { ignoreExpiry?: boolean }): Promise<AccessClaims>;
}

function isRole(value: unknown): value is Role {
  return value === 'admin' || value === 'member';
}

/** HS256 access tokens (RFC 7519) with iss, aud, sub, org, role, sid and a 15-minute exp. */
export async function createAccessTokens(secret: string): Promise<AccessTokens> {
  // imported once: passing raw bytes to jose would import the key again on every call
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  // Verified tokens, so a client's repeated calls with one token skip the Web Crypto round trip
  // (about 90 µs): a Map lookup and an expiry check instead. Insertion order evicts the oldest.
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();

  function remember(token: string, claims: AccessClaims, exp: number): void {
    if (verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = verified.keys().next();
      if (oldest.done !== true) verified.delete(oldest.value);
    }
    verified.set(token, { claims, expiresAtMs: (exp + CLOCK_TOLERANCE_SECONDS) * 1000 });
  }

  return {
    async sign(claims, now = new Date()) {
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({ org: claims.organisationId, role: claims.role, sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(JWT_ISSUER)
        .setAudience(JWT_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token, options = {}) {
      if (!options.ignoreExpiry) {
        const hit = verified.get(token);
        if (hit !== undefined) {
          if (Date.now() < hit.expiresAtMs) return hit.claims;
          verified.delete(token);
          throw new AccessTokenError('expired');
        }
      }
      let payload;
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: JWT_ISSUER,
          audience: JWT_AUDIENCE,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['sub', 'exp'],
          // checking "now" against the epoch accepts any exp, and only exp
          ...(options.ignoreExpiry ? { currentDate: new Date(0) } : {}),
        }));
      } catch (error) {
        throw new AccessTokenError(error instanceof errors.JWTExpired ? 'expired' : 'invalid', {
          cause: error,
        });
      }
      const { sub, org, role, sid } = payload;
      if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string' || !isRole(role)) {
        throw new AccessTokenError('invalid');
      }
      const claims: AccessClaims = { userId: sub, organisationId: org, role, sessionId: sid };
      if (!options.ignoreExpiry && typeof payload.exp === 'number') remember(token, claims, payload.exp);
      return claims;
    },
  };
}
