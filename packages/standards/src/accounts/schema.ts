/**
 * Request schemas of the account API (`/v1/auth/*`), shared by the server's routes and the web
 * app's forms, so both check a body with the same rules, in the same order, with the same texts
 * (spec part 1 §5 and §8). Pure zod: runs in the browser and in Node.
 */
import { z } from 'zod';
import { newPasswordIssue } from './password-policy.ts';

export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
/** argon2 takes any length; the cap keeps a request from buying minutes of hashing. */
export const PASSWORD_MAX = 1024;
export const NAME_MAX = 100;
export const COMPANY_MAX = 200;
export const PHONE_MAX = 50;
export const TOKEN_MAX = 200;

export const ACCOUNT_MESSAGES = {
  allRequired: 'All fields are required',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters long`,
  passwordsDiffer: 'Passwords do not match',
  invalidEmail: 'Please enter a valid email address',
  emailRequired: 'Email is required',
  loginRequired: 'Email and password are required',
  registered: 'Registration successful! Please check your email to verify your account.',
  resetRequested: 'If an account with that email exists, you will receive a password reset link shortly.',
  verificationResent:
    'If an account with that email exists and is not yet verified, a new verification link is on its way.',
} as const;

// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** The browser's own rule for `<input type="email">` (WHATWG HTML). */
export function isEmail(value: string): boolean {
  return z.regexes.html5Email.test(value);
}

/** Trimmed and lower-cased: the form in which emails are stored and compared. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** A one-line text field: length cap, no control characters, no lone surrogates (PostgreSQL refuses NUL). */
export function singleLine(label: string, max: number, required?: string) {
  return z
    .string(
      required === undefined
        ? undefined
        : { error: (issue) => (issue.input === undefined ? required : undefined) },
    )
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => value.isWellFormed() && !CONTROL_CHARACTERS.test(value), {
      error: `${label} must not contain control characters`,
    });
}

function password(label: string, required: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? required : undefined) })
    .max(PASSWORD_MAX, `${label} must be at most ${PASSWORD_MAX} characters`);
}

const optionalText = (label: string, max: number) => singleLine(label, max).nullable().optional();

/** A link token: base64url, as `randomToken` makes them. */
const tokenField = (required: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? required : undefined) })
    .max(TOKEN_MAX, 'Token is too long')
    .describe('The token from the emailed link');

/**
 * Required, then length, then confirmation (the spec's order and texts), then the password policy
 * (password-policy.ts) with the account's address when the body has one.
 */
function checkNewPassword(
  values: { password: string; confirmation: string; others: string[]; email?: string },
  ctx: z.RefinementCtx,
): void {
  if (
    values.others.some((value) => value.trim() === '') ||
    values.password === '' ||
    values.confirmation === ''
  ) {
    ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.allRequired });
  } else if (values.password.length < PASSWORD_MIN) {
    ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.passwordTooShort, path: ['password'] });
  } else if (values.password !== values.confirmation) {
    ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.passwordsDiffer, path: ['confirmPassword'] });
  } else {
    const issue = newPasswordIssue(values.password, values.email);
    if (issue !== undefined) ctx.addIssue({ code: 'custom', message: issue, path: ['password'] });
  }
}

export const registerBody = z
  .strictObject({
    email: singleLine('Email', EMAIL_MAX, ACCOUNT_MESSAGES.allRequired),
    password: password('Password', ACCOUNT_MESSAGES.allRequired),
    confirmPassword: password('Password confirmation', ACCOUNT_MESSAGES.allRequired),
    firstName: optionalText('First name', NAME_MAX),
    lastName: optionalText('Last name', NAME_MAX),
    company: optionalText('Company', COMPANY_MAX),
  })
  .superRefine((body, ctx) => {
    if (body.email.trim() === '' || body.password === '' || body.confirmPassword === '') {
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.allRequired });
      return;
    }
    if (!isEmail(body.email.trim())) {
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.invalidEmail, path: ['email'] });
      return;
    }
    checkNewPassword(
      { password: body.password, confirmation: body.confirmPassword, others: [], email: body.email },
      ctx,
    );
  });
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.strictObject({
  email: singleLine('Email', EMAIL_MAX, ACCOUNT_MESSAGES.loginRequired).refine(
    (value) => value.trim() !== '',
    {
      error: ACCOUNT_MESSAGES.loginRequired,
    },
  ),
  password: password('Password', ACCOUNT_MESSAGES.loginRequired).min(1, ACCOUNT_MESSAGES.loginRequired),
});
export type LoginBody = z.infer<typeof loginBody>;

/** For request-password-reset and resend-verification. */
export const emailOnlyBody = z.strictObject({
  email: singleLine('Email', EMAIL_MAX, ACCOUNT_MESSAGES.emailRequired)
    .refine((value) => value.trim() !== '', { error: ACCOUNT_MESSAGES.emailRequired })
    .refine((value) => isEmail(value.trim()), { error: ACCOUNT_MESSAGES.invalidEmail }),
});
export type EmailOnlyBody = z.infer<typeof emailOnlyBody>;

export const resetPasswordBody = z
  .strictObject({
    token: tokenField(ACCOUNT_MESSAGES.allRequired),
    password: password('Password', ACCOUNT_MESSAGES.allRequired),
    confirmPassword: password('Password confirmation', ACCOUNT_MESSAGES.allRequired),
  })
  .superRefine((body, ctx) =>
    checkNewPassword(
      { password: body.password, confirmation: body.confirmPassword, others: [body.token] },
      ctx,
    ),
  );
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const changePasswordBody = z
  .strictObject({
    currentPassword: password('Current password', ACCOUNT_MESSAGES.allRequired),
    newPassword: password('New password', ACCOUNT_MESSAGES.allRequired),
    confirmPassword: password('Password confirmation', ACCOUNT_MESSAGES.allRequired),
  })
  .superRefine((body, ctx) =>
    checkNewPassword(
      { password: body.newPassword, confirmation: body.confirmPassword, others: [body.currentPassword] },
      ctx,
    ),
  );
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const updateProfileBody = z
  .strictObject({
    email: singleLine('Email', EMAIL_MAX)
      .refine((value) => value.trim() !== '', { error: ACCOUNT_MESSAGES.emailRequired })
      .refine((value) => isEmail(value.trim()), { error: ACCOUNT_MESSAGES.invalidEmail })
      .optional(),
    firstName: optionalText('First name', NAME_MAX),
    lastName: optionalText('Last name', NAME_MAX),
    company: optionalText('Company', COMPANY_MAX),
    phone: optionalText('Phone', PHONE_MAX),
    currentPassword: z
      .string()
      .max(PASSWORD_MAX, `Current password must be at most ${PASSWORD_MAX} characters`)
      .optional()
      .describe('Needed to change the email address'),
  })
  .describe(
    'Fields to change; omitted fields stay as they are, null or "" clears one. A new email needs the current password and is confirmed by mail first.',
  );
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

export const verifyEmailQuery = z.object({ token: tokenField('Verification token is required') });

export const refreshTokenBody = z
  .strictObject({
    refreshToken: z
      .string()
      .max(TOKEN_MAX, 'Token is too long')
      .optional()
      .describe('For clients without cookies; browsers send the HttpOnly cookie instead'),
  })
  // a POST without a body arrives as null
  .nullish();
