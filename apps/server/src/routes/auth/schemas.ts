/** Response schemas of the account API; the request schemas are shared in `@rfckit/standards`. */
import { z } from 'zod';

export const roleSchema = z.enum(['admin', 'member']);

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  name: z.string().nullable().describe('First and last name, or null when neither is set'),
  role: roleSchema,
  organisation: z.object({ id: z.string(), name: z.string() }),
  emailVerified: z.boolean(),
});
export type UserView = z.infer<typeof userSchema>;

export const profileSchema = userSchema.extend({
  company: z.string().nullable(),
  phone: z.string().nullable(),
  pendingEmail: z.string().nullable().describe('A new address waiting for its confirmation link'),
  createdAt: z.string(),
});
export type ProfileView = z.infer<typeof profileSchema>;

export const loginResponse = z.object({
  success: z.literal(true),
  token: z.string().describe('Access token (JWT, about 15 minutes): send as Authorization: Bearer'),
  refreshToken: z.string().describe('Also set as an HttpOnly cookie; for clients without cookies'),
  user: userSchema,
});

export const messageSchema = z.object({ message: z.string() });

export const tokenPairSchema = z.object({
  token: z.string(),
  refreshToken: z.string().optional().describe('Only when the refresh token came in the body'),
  expiresIn: z.number().int().describe('Seconds until the access token expires'),
});
