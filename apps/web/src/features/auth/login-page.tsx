import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { loginBody } from '@rfckit/standards';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';

import { SignInFields } from '../../components/sign-in-fields.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { errorText, firstIssue } from '../../lib/form-submission.ts';
import { returnPath, signIn } from '../../lib/session.ts';
import { AuthLayout } from './auth-layout.tsx';

const LOGIN_FAILED = 'Login failed';

interface Failure {
  message: string;
  /** The server refused an unverified address: offer a new verification mail. */
  unverified: boolean;
}

type Resend = { state: 'idle' | 'busy' } | { state: 'done' | 'failed'; message: string };

/** What the links of the account mails (unlock, undo a change) come back to the sign-in page to say. */
const accountNotices = [
  {
    param: 'unlocked',
    value: '1',
    color: 'green',
    title: 'Sign-in unlocked',
    text: 'The pause on signing in to your account is lifted. You can sign in again now.',
  },
  {
    param: 'unlock',
    value: 'failed',
    color: 'red',
    title: 'Unlock failed',
    text: 'This unlock link is invalid, already used or expired. Wait for the pause to end, or reset your password.',
  },
  {
    param: 'undone',
    value: '1',
    color: 'green',
    title: 'Change undone',
    text: 'The change is undone and every session was signed out. We sent a link to choose a new password to the account’s address.',
  },
  {
    param: 'undo',
    value: 'failed',
    color: 'red',
    title: 'Undo failed',
    text: 'This link is invalid, already used or expired. If you did not make the change, reset your password now.',
  },
] as const;

/** Spec part 1 §2 /login. Success goes back to the protected page the user came from, else /dashboard. */
export default function LoginPage() {
  useDocumentTitle('Sign in · rfckit');
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [resend, setResend] = useState<Resend>({ state: 'idle' });

  const verified = params.get('verified') === '1';
  const verificationFailed = params.get('verification') === 'failed';
  const notice = accountNotices.find(({ param, value }) => params.get(param) === value);

  // submit and resendVerification show their own failures: the events need not wait for them
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = firstIssue(loginBody.safeParse({ email, password }));
    if (invalid !== null) {
      setFailure({ message: invalid, unverified: false });
      return;
    }
    setBusy(true);
    setFailure(null);
    setResend({ state: 'idle' });
    try {
      await signIn(email.trim(), password);
      await navigate(returnPath(location.state) ?? '/dashboard', { replace: true });
    } catch (error) {
      setFailure(
        error instanceof ApiError
          ? { message: error.message, unverified: error.code === 'EMAIL_NOT_VERIFIED' }
          : { message: LOGIN_FAILED, unverified: false },
      );
      setBusy(false);
    }
  }

  async function resendVerification() {
    setResend({ state: 'busy' });
    try {
      const { message } = await api.request<{ message: string }>('/v1/auth/resend-verification', {
        method: 'POST',
        body: { email: email.trim() },
        anonymous: true,
      });
      setResend({ state: 'done', message });
    } catch (error) {
      setResend({ state: 'failed', message: errorText(error, 'Failed to send the verification email') });
    }
  }

  return (
    <AuthLayout title="Sign in" intro="Sign in to use the rfckit tools and your dashboard.">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {verified && (
            <Alert color="green" title="Email address verified">
              Your email address is confirmed. You can now sign in.
            </Alert>
          )}
          {notice && (
            <Alert color={notice.color} title={notice.title}>
              {notice.text}
            </Alert>
          )}
          {verificationFailed && (
            <Alert color="red" title="Verification failed">
              This verification link is invalid, already used or expired. Sign in to request a new one.
            </Alert>
          )}
          <SignInFields
            email={email}
            password={password}
            onEmailChange={setEmail}
            onPasswordChange={setPassword}
          />
          {failure !== null && (
            <Alert color="red" title="Sign-in failed">
              <Stack gap="xs">
                <Text size="sm">{failure.message}</Text>
                {failure.unverified && (
                  <div>
                    <Button
                      type="button"
                      variant="default"
                      size="xs"
                      loading={resend.state === 'busy'}
                      onClick={() => void resendVerification()}
                    >
                      Resend verification email
                    </Button>
                  </div>
                )}
              </Stack>
            </Alert>
          )}
          {(resend.state === 'done' || resend.state === 'failed') && (
            <Alert color={resend.state === 'done' ? 'green' : 'red'}>{resend.message}</Alert>
          )}
          <Button type="submit" loading={busy} fullWidth>
            Sign in
          </Button>
          <Group justify="space-between" gap="xs">
            <Anchor component={Link} to="/register" size="sm">
              Create an account
            </Anchor>
            <Anchor component={Link} to="/reset-password" size="sm">
              Forgot your password?
            </Anchor>
          </Group>
          <Anchor component={Link} to="/welcome" size="sm">
            Back to Welcome
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
