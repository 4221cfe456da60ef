/**
 * Request schemas of the organisation API (`/v1/organisation`, its members and invitations),
 * shared by the server's routes and the web app's forms: same rules, same messages. The screen
 * texts are spec part 1 §8's. Pure zod: runs in the browser and in Node.
 */
import { z } from 'zod';
import { newPasswordIssue } from './password-policy.ts';

import { parseDnsName } from '../core/dns-name.ts';
import {
  ACCOUNT_MESSAGES,
  EMAIL_MAX,
  isEmail,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PHONE_MAX,
  TOKEN_MAX,
} from './schema.ts';

export const ORGANISATION_NAME_MAX = 200;
/** RFC 1035 §2.3.4 allows 255 octets on the wire: 253 characters in text without the root dot. */
export const DOMAIN_MAX = 253;
export const ADDRESS_MAX = 500;
export const DESCRIPTION_MAX = 2000;

export const ORGANISATION_MESSAGES = {
  updated: 'organisation updated successfully!',
  updateFailed: 'Failed to update organisation. Please try again.',
  invitationSent: 'Invitation sent successfully!',
  invitationFailed: 'Failed to send invitation. Please try again.',
  nameRequired: 'Organisation name is required',
  invalidDomain: 'Domain must be a valid domain name, e.g. example.com',
  invalidAdminEmail: 'Admin email must be a valid email address',
  invitationRequired: 'First name, last name and email are required',
  invalidRole: 'Role must be member or admin',
} as const;

export const TEAM_ROLES = ['member', 'admin'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- as above, but a multi-line field keeps tab, LF and CR
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Letters, digits and hyphens, neither first nor last (RFC 1123 §2.1 host name labels). */
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether a text is a host-style domain name (`example.com`, `mail.example.co.uk`, A-labels
 * such as `xn--bcher-kva.de`): at least two labels of letters, digits and inner hyphens within
 * RFC 1035's length limits, and a top-level label that is not all digits (so no IPv4 address).
 * One trailing dot is allowed.
 */
export function isDomainName(value: string): boolean {
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (name === '' || name.length > DOMAIN_MAX) return false;
  const parsed = parseDnsName(name);
  if (!parsed.ok) return false;
  const labels = name.toLowerCase().split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => LDH_LABEL.test(label))) return false;
  return !/^\d+$/.test(labels.at(-1) ?? '');
}

/** Lower case, no trailing dot: the form in which a domain is stored. */
export function normaliseDomain(value: string): string {
  const trimmed = value.trim().toLowerCase();
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}

function text(label: string, max: number, multiLine = false, required?: string) {
  return z
    .string(
      required === undefined
        ? undefined
        : { error: (issue) => (issue.input === undefined ? required : undefined) },
    )
    .max(max, `${label} must be at most ${max} characters`)
    .refine(
      (value) => value.isWellFormed() && !(multiLine ? CONTROL_EXCEPT_LINES : CONTROL_CHARACTERS).test(value),
      { error: `${label} must not contain control characters` },
    );
}

/** Optional: absent leaves the field alone on update, null or blank clears it. */
const optional = (schema: z.ZodType<string>) => schema.nullable().optional();

export const updateOrganisationBody = z
  .strictObject({
    name: text('Organisation name', ORGANISATION_NAME_MAX, false, ORGANISATION_MESSAGES.nameRequired).refine(
      (value) => value.trim() !== '',
      {
        error: ORGANISATION_MESSAGES.nameRequired,
      },
    ),
    domain: optional(
      text('Domain', DOMAIN_MAX + 1).refine((value) => value.trim() === '' || isDomainName(value.trim()), {
        error: ORGANISATION_MESSAGES.invalidDomain,
      }),
    ),
    address: optional(text('Address', ADDRESS_MAX, true)),
    phone: optional(text('Phone', PHONE_MAX)),
    adminEmail: optional(
      text('Admin email', EMAIL_MAX).refine((value) => value.trim() === '' || isEmail(value.trim()), {
        error: ORGANISATION_MESSAGES.invalidAdminEmail,
      }),
    ),
    description: optional(text('Description', DESCRIPTION_MAX, true)),
  })
  .describe(
    'The organisation information. name is required; other fields left out stay as they are, null or "" clears one.',
  );
export type UpdateOrganisationBody = z.infer<typeof updateOrganisationBody>;

const requiredText = (label: string, max: number) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? ORGANISATION_MESSAGES.invitationRequired : undefined),
    })
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => value.isWellFormed() && !CONTROL_CHARACTERS.test(value), {
      error: `${label} must not contain control characters`,
    });

const role = z.enum(TEAM_ROLES, { error: ORGANISATION_MESSAGES.invalidRole });

/** The 'Add Member' form (spec part 1 §5: first name, last name and email required; role member by default). */
export const inviteMemberBody = z
  .strictObject({
    firstName: requiredText('First name', NAME_MAX),
    lastName: requiredText('Last name', NAME_MAX),
    email: requiredText('Email', EMAIL_MAX),
    role: role.default('member'),
  })
  .superRefine((body, ctx) => {
    if (body.firstName.trim() === '' || body.lastName.trim() === '' || body.email.trim() === '') {
      ctx.addIssue({ code: 'custom', message: ORGANISATION_MESSAGES.invitationRequired });
      return;
    }
    if (!isEmail(body.email.trim())) {
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.invalidEmail, path: ['email'] });
    }
  });
export type InviteMemberBody = z.input<typeof inviteMemberBody>;

export const changeMemberRoleBody = z.strictObject({ role });
export type ChangeMemberRoleBody = z.infer<typeof changeMemberRoleBody>;

const invitationToken = z
  .string({ error: (issue) => (issue.input === undefined ? 'Invitation token is required' : undefined) })
  .min(1, 'Invitation token is required')
  .max(TOKEN_MAX, 'Token is too long')
  .describe('The token from the invitation link');

export const invitationTokenBody = z.strictObject({ token: invitationToken });

/**
 * Accepting an invitation. A signed-in user whose email is the invited one sends the token alone;
 * someone without an account also chooses a password (the mailed link proves the address).
 */
export const acceptInvitationBody = z
  .strictObject({
    token: invitationToken,
    password: z.string().max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`).optional(),
    confirmPassword: z
      .string()
      .max(PASSWORD_MAX, `Password confirmation must be at most ${PASSWORD_MAX} characters`)
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.password === undefined && body.confirmPassword === undefined) return;
    if (!body.password || !body.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.allRequired });
    } else if (body.password.length < PASSWORD_MIN) {
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.passwordTooShort, path: ['password'] });
    } else if (body.password !== body.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.passwordsDiffer, path: ['confirmPassword'] });
    } else {
      // the invited address is checked by the server, which knows it
      const issue = newPasswordIssue(body.password);
      if (issue !== undefined) ctx.addIssue({ code: 'custom', message: issue, path: ['password'] });
    }
  });
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBody>;
