import { beforeAll, describe, expect, it } from 'vitest';
import {
  commonPasswordCount,
  loadPasswordPolicy,
  loadPasswordStrength,
  newPasswordIssue,
  PASSWORD_MESSAGES,
  passwordScore,
} from './password-policy.ts';
import { changePasswordBody, registerBody, resetPasswordBody } from './schema.ts';

describe('new-password policy (NIST SP 800-63B)', () => {
  beforeAll(async () => {
    await Promise.all([loadPasswordPolicy(), loadPasswordStrength()]);
  }, 30_000);

  it('checks against a common-password list of at least 100,000 entries', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(100_000);
  });

  it('refuses common passwords whatever their case, repeated characters and the email', () => {
    const cases: [string, string | undefined, string][] = [
      ['password', undefined, PASSWORD_MESSAGES.common],
      ['PassWord', undefined, PASSWORD_MESSAGES.common],
      ['12345678', undefined, PASSWORD_MESSAGES.common],
      ['qwertyuiop', undefined, PASSWORD_MESSAGES.common],
      ['        ', undefined, PASSWORD_MESSAGES.repeated],
      ['aaaaaaaaaa', undefined, PASSWORD_MESSAGES.repeated],
      ['alice.smith@example.org', 'Alice.Smith@example.org', PASSWORD_MESSAGES.containsEmail],
      ['alice.smith', 'alice.smith@example.org', PASSWORD_MESSAGES.containsEmail],
      ['my-alice.smith-2024', 'alice.smith@example.org', PASSWORD_MESSAGES.containsEmail],
    ];
    for (const [password, email, message] of cases) {
      expect(newPasswordIssue(password, email), password).toBe(message);
    }
  });

  it('accepts a long passphrase, and a short local part inside one', () => {
    expect(newPasswordIssue('correct horse battery staple', 'al@example.org')).toBeUndefined();
    expect(newPasswordIssue('Tr0ub4dor&3-xylophone')).toBeUndefined();
  });

  it('applies the same rule in the shared request schemas', () => {
    const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
      result.success ? undefined : result.error?.issues[0]?.message;
    expect(
      issue(
        registerBody.safeParse({ email: 'x@example.org', password: 'password', confirmPassword: 'password' }),
      ),
    ).toBe(PASSWORD_MESSAGES.common);
    const own = 'bob.builder@example.org';
    expect(issue(registerBody.safeParse({ email: own, password: own, confirmPassword: own }))).toBe(
      PASSWORD_MESSAGES.containsEmail,
    );
    expect(
      issue(resetPasswordBody.safeParse({ token: 't', password: '12345678', confirmPassword: '12345678' })),
    ).toBe(PASSWORD_MESSAGES.common);
    const spaces = ' '.repeat(8);
    expect(
      issue(
        changePasswordBody.safeParse({ currentPassword: 'x', newPassword: spaces, confirmPassword: spaces }),
      ),
    ).toBe(PASSWORD_MESSAGES.repeated);
    // the spec's checks and texts come first
    expect(
      issue(registerBody.safeParse({ email: 'x@example.org', password: 'short', confirmPassword: 'short' })),
    ).toBe('Password must be at least 8 characters long');
  });

  it('scores with zxcvbn: a common password 0, a long random one 4', () => {
    expect(passwordScore('password')).toBe(0);
    expect(passwordScore('kJ8#qL2!vZ9@xR4$')).toBe(4);
    expect(passwordScore('alice2024', ['alice'])).toBeLessThanOrEqual(1);
  });
});
