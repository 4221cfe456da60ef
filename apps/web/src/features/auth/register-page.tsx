import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ACCOUNT_MESSAGES, loadPasswordPolicy, registerBody } from '@rfckit/standards';
import { useState } from 'react';
import { Link } from 'react-router';

import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { api } from '../../lib/api.ts';
import { useFormSubmission, useRedirectAfter } from '../../lib/form-submission.ts';
import { AuthLayout } from './auth-layout.tsx';

const REGISTRATION_FAILED = 'Registration failed';
/** Spec part 1 §9: to /login 3 seconds after registration. */
const REGISTERED_REDIRECT_MS = 3000;

/** Spec part 1 §2 /register: email, password, confirmation and a strength meter. */
export default function RegisterPage() {
  useDocumentTitle('Create an account · rfckit');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: { email, password, confirmPassword },
    schema: registerBody,
    prepare: loadPasswordPolicy,
    submit: async (body) => {
      await api.request('/v1/auth/register', {
        method: 'POST',
        body: { ...body, email: body.email.trim() },
        anonymous: true,
      });
      return ACCOUNT_MESSAGES.registered;
    },
    fallbackError: REGISTRATION_FAILED,
  });

  const registered = outcome?.kind === 'done';
  useRedirectAfter(registered, '/login', REGISTERED_REDIRECT_MS);

  return (
    <AuthLayout
      title="Create an account"
      intro="Register with your email address. We send you a link to confirm it before your first sign-in."
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
          <NewPasswordFields
            passwordLabel="Password"
            confirmLabel="Confirm password"
            description="At least 8 characters, not a common password and not your email address. A few unrelated words make a strong one."
            userInputs={email.trim() === '' ? [] : [email.trim()]}
            password={password}
            confirmPassword={confirmPassword}
            onPasswordChange={setPassword}
            onConfirmPasswordChange={setConfirmPassword}
          />
          <OutcomeAlert outcome={outcome} />
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
