import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ACCOUNT_MESSAGES, emailOnlyBody, loadPasswordPolicy, resetPasswordBody } from '@rfckit/standards';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { api } from '../../lib/api.ts';
import { useFormSubmission, useRedirectAfter } from '../../lib/form-submission.ts';
import { AuthLayout } from './auth-layout.tsx';

const REQUEST_FAILED = 'Failed to request password reset';
const RESET_FAILED = 'Failed to reset password';
const RESET_DONE = 'Password reset successfully! Redirecting to login...';
/** Spec part 1 §9: to /login 2 seconds after the reset. */
const RESET_REDIRECT_MS = 2000;

function RequestLink() {
  const [email, setEmail] = useState('');
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: { email },
    schema: emailOnlyBody,
    submit: async (body) => {
      await api.request('/v1/auth/request-password-reset', {
        method: 'POST',
        body: { email: body.email.trim() },
        anonymous: true,
      });
      return ACCOUNT_MESSAGES.resetRequested;
    },
    fallbackError: REQUEST_FAILED,
  });

  return (
    <AuthLayout
      title="Reset your password"
      intro="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <OutcomeAlert outcome={outcome} />
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
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: { token, password, confirmPassword },
    schema: resetPasswordBody,
    prepare: loadPasswordPolicy,
    submit: async (body) => {
      await api.request('/v1/auth/reset-password', { method: 'POST', body, anonymous: true });
      return RESET_DONE;
    },
    fallbackError: RESET_FAILED,
  });

  const done = outcome?.kind === 'done';
  useRedirectAfter(done, '/login', RESET_REDIRECT_MS);

  return (
    <AuthLayout
      title="Choose a new password"
      intro="Your other sessions are signed out when the password changes."
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <NewPasswordFields
            password={password}
            confirmPassword={confirmPassword}
            onPasswordChange={setPassword}
            onConfirmPasswordChange={setConfirmPassword}
          />
          <OutcomeAlert outcome={outcome} />
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
