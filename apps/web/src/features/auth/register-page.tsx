import { Alert, Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ACCOUNT_MESSAGES, registerBody } from '@rfckit/standards';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { PasswordField } from '../../components/password-field.tsx';
import { PasswordStrengthMeter } from '../../components/password-strength.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { AuthLayout, firstIssue } from './auth-layout.tsx';

const REGISTRATION_FAILED = 'Registration failed';
/** Spec part 1 §9: to /login 3 seconds after registration. */
const REGISTERED_REDIRECT_MS = 3000;

type Outcome = { kind: 'error'; message: string } | { kind: 'registered' } | null;

/** Spec part 1 §2 /register: email, password, confirmation and a strength meter. */
export default function RegisterPage() {
  useDocumentTitle('Create an account · rfckit');
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const registered = outcome?.kind === 'registered';
  useEffect(() => {
    if (!registered) return;
    const timer = window.setTimeout(() => navigate('/login'), REGISTERED_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [registered, navigate]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { email, password, confirmPassword };
    const invalid = firstIssue(registerBody.safeParse(body));
    if (invalid !== null) {
      setOutcome({ kind: 'error', message: invalid });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      await api.request('/v1/auth/register', {
        method: 'POST',
        body: { ...body, email: email.trim() },
        anonymous: true,
      });
      setOutcome({ kind: 'registered' });
    } catch (error) {
      setOutcome({ kind: 'error', message: error instanceof ApiError ? error.message : REGISTRATION_FAILED });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout
      title="Create an account"
      intro="Register with your email address. We send you a link to confirm it before your first sign-in."
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
          <Stack gap="xs">
            <PasswordField
              label="Password"
              description="At least 8 characters; mixing cases, digits and symbols makes it stronger."
              autoComplete="new-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <PasswordStrengthMeter password={password} />
          </Stack>
          <PasswordField
            label="Confirm password"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.currentTarget.value)}
          />
          {outcome?.kind === 'error' && <Alert color="red">{outcome.message}</Alert>}
          {registered && <Alert color="green">{ACCOUNT_MESSAGES.registered}</Alert>}
          <Button type="submit" loading={busy} disabled={registered} fullWidth>
            Create account
          </Button>
          <Group gap="xs">
            <Anchor component={Link} to="/login" size="sm">
              Already have an account? Sign in
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
