import { Alert, Button, Paper, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { SignInFields } from '../../components/sign-in-fields.tsx';
import { ApiError } from '../../lib/api.ts';
import { signIn } from '../../lib/session.ts';

const INVALID_CREDENTIALS = 'Invalid credentials. Please check your email and password.';

/** The welcome page's quick sign-in (spec part 1 §2); success goes to /dashboard. */
export function QuickSignIn() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // submit shows its own failures: the form event need not wait for it
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (email.trim() === '' || password === '') {
      setError(INVALID_CREDENTIALS);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
      await navigate('/dashboard');
    } catch (failure) {
      // wrong credentials get the spec's text; an unverified address or a rate limit keeps the server's
      const own = failure instanceof ApiError && failure.status !== 400 && failure.status !== 401;
      setError(own ? failure.message : INVALID_CREDENTIALS);
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="quick-sign-in">
      <Title order={2} size="h4" id="quick-sign-in" mb="sm">
        Quick sign-in
      </Title>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <SignInFields
            email={email}
            password={password}
            onEmailChange={setEmail}
            onPasswordChange={setPassword}
          />
          {error !== null && <Alert color="red">{error}</Alert>}
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
