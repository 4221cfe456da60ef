/** Response schemas of the organisation API; the request schemas are shared in `@rfckit/standards`. */
import { z } from 'zod';
import type { Organisation } from '../../db/organisations.ts';
import { roleSchema } from '../auth/schemas.ts';

export const bearer = [{ bearerAuth: [] }];

export const organisationSchema = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  adminEmail: z.string().nullable(),
  description: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrganisationView = z.infer<typeof organisationSchema>;

export function organisationView(row: Organisation): OrganisationView {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    address: row.address,
    phone: row.phone,
    adminEmail: row.admin_email,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** One row of the team table: a member (Active) or an open invitation (Pending). */
export const teamMemberSchema = z.object({
  id: z.string().describe("The user's id for a member, the invitation's id for an invitation"),
  kind: z.enum(['member', 'invitation']),
  name: z.string().nullable().describe('First and last name, or null when neither is known'),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  role: z.enum(['Admin', 'Member']),
  status: z.enum(['Active', 'Pending']),
  since: z.string().describe('When the member joined, or when the invitation was last sent'),
  expiresAt: z.string().nullable().describe("An invitation's link expiry; null for members"),
  expired: z.boolean().describe('An invitation whose link has expired (resend it); false for members'),
  you: z.boolean().describe('The caller'),
});
export type TeamMemberView = z.infer<typeof teamMemberSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: roleSchema,
  status: z.enum(['pending', 'expired']),
  invitedBy: z.string().nullable().describe("The inviter's email, null when that account is gone"),
  createdAt: z.string(),
  sentAt: z.string(),
  expiresAt: z.string(),
});
export type InvitationView = z.infer<typeof invitationSchema>;

export const messageWith = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object({ message: z.string(), ...shape });
