/**
 * Organisation API keys (`/v1/organisation/api-keys`): the create body shared by the server's
 * route and the web form, and the shape of a key. Beyond the spec (issue 4): keys let scripts call
 * the tool routes; they never reach account, organisation or billing routes.
 */
import { z } from 'zod';
import { singleLine } from './schema.ts';

/** Every key starts with this, so that a leaked key is recognisable (and secret scanners can match it). */
export const API_KEY_PREFIX = 'rfk_';
/** `rfk_` and 32 random bytes in base64url. */
export const API_KEY_PATTERN = /^rfk_[A-Za-z0-9_-]{43}$/;
/** The characters of a key kept in clear and shown in lists to tell keys apart. */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8;
export const API_KEY_NAME_MAX = 100;
/** Active keys an organisation may hold at once. */
export const API_KEYS_PER_ORGANISATION = 50;

export const API_KEY_MESSAGES = {
  nameRequired: 'Name is required',
  nameTaken: 'An active API key with this name already exists',
  tooMany: `An organisation can hold at most ${API_KEYS_PER_ORGANISATION} active API keys: revoke one first`,
  created: 'API key created successfully! Copy it now: it will not be shown again.',
  revoked: 'API key revoked successfully!',
  adminOnly: 'Only organisation admins can manage API keys',
} as const;

/** Whether a bearer token has the shape of an API key (no lookup: a cheap first filter). */
export function isApiKeyFormat(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

export const createApiKeyBody = z.strictObject({
  name: singleLine('Name', API_KEY_NAME_MAX, API_KEY_MESSAGES.nameRequired)
    .refine((value) => value.trim() !== '', { error: API_KEY_MESSAGES.nameRequired })
    .describe('What the key is for, e.g. "CI pipeline"; unique among the active keys of the organisation'),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;
