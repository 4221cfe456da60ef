import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ACCOUNT_MESSAGES, emailOnlyBody, resetPasswordBody } from '@rfckit/standards';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { PasswordField } from '../../components/password-field.tsx';
import { PasswordStrengthMeter } from '../../components/password-strength.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { AuthLayout, firstIssue } from './auth-layout.tsx';

const REQUEST_FAILED = 'Failed to request password reset';
const RESET_FAILED = 'Failed to reset password';
const RESET_DONE = 'Password reset successfully! Redirecting to login...';
/** Spec part 1 §9: to /login 2 seconds after the reset. */
const RESET_REDIRECT_MS = 2000;

type Outcome = { kind: 'error' | 'done'; message: string } | null;

function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

function RequestLink() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = firstIssue(emailOnlyBody.safeParse({ email }));
    if (invalid !== null) {
      setOutcome({ kind: 'error', message: invalid });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      await api.request('/v1/auth/request-password-reset', {
        method: 'POST',
        body: { email: email.trim() },
        anonymous: true,
      });
      setOutcome({ kind: 'done', message: ACCOUNT_MESSAGES.resetRequested });
    } catch (error) {
      setOutcome({ kind: 'error', message: errorText(error, REQUEST_FAILED) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout
      title="Reset your password"
      intro="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          {outcome !== null && (
            <Alert color={outcome.kind === 'done' ? 'green' : 'red'}>{outcome.message}</Alert>
          )}
          <Button type="submit" loading={busy} fullWidth>
            Send reset link
          </Button>
          <Anchor component={Link} to="/login" size="sm">
            Back to login
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}

function SetPassword({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const done = outcome?.kind === 'done';
  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => navigate('/login'), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { token, password, confirmPassword };
    const invalid = firstIssue(resetPasswordBody.safeParse(body));
    if (invalid !== null) {
      setOutcome({ kind: 'error', message: invalid });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      await api.request('/v1/auth/reset-password', { method: 'POST', body, anonymous: true });
      setOutcome({ kind: 'done', message: RESET_DONE });
    } catch (error) {
      setOutcome({ kind: 'error', message: errorText(error, RESET_FAILED) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout
      title="Choose a new password"
      intro="Your other sessions are signed out when the password changes."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Stack gap="xs">
            <PasswordField
              label="New password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <PasswordStrengthMeter password={password} />
          </Stack>
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.currentTarget.value)}
          />
          {outcome !== null && (
            <Alert color={outcome.kind === 'done' ? 'green' : 'red'}>{outcome.message}</Alert>
          )}
          <Button type="submit" loading={busy} disabled={done} fullWidth>
            Reset password
          </Button>
          <Anchor component={Link} to="/login" size="sm">
            Back to login
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}

/** Spec part 1 §2 /reset-password: request mode, or set-password mode when the link's token is present. */
export default function ResetPasswordPage() {
  useDocumentTitle('Reset password · rfckit');
  const [params] = useSearchParams();
  const token = params.get('token');
  return token === null ? <RequestLink /> : <SetPassword token={token} />;
}
