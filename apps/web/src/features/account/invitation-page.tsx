import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { acceptInvitationBody, loadPasswordPolicy } from '@rfckit/standards';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { api } from '../../lib/api.ts';
import { useFormSubmission } from '../../lib/form-submission.ts';
import {
  replaceAccessToken,
  signIn,
  signOut,
  updateSessionUser,
  useSession,
  type SessionUser,
} from '../../lib/session.ts';
import { failureText } from './organisation-types.ts';

const ACCEPT_FAILED = 'Failed to accept the invitation. Please try again.';

interface Preview {
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'member';
  organisation: { name: string };
  invitedBy: { name: string | null; email: string } | null;
  expiresAt: string;
  accountExists: boolean;
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack maw={520} mx="auto" py="xl" gap="md">
      <Title order={1}>{title}</Title>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">{children}</Stack>
      </Paper>
    </Stack>
  );
}

function Summary({ preview }: { preview: Preview }) {
  const inviter =
    preview.invitedBy === null ? 'An admin' : (preview.invitedBy.name ?? preview.invitedBy.email);
  const expires = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' }).format(
    new Date(preview.expiresAt),
  );
  return (
    <Stack gap={4}>
      <Text>
        {inviter}
        {preview.invitedBy !== null &&
          preview.invitedBy.name !== null &&
          ` (${preview.invitedBy.email})`}{' '}
        invited <strong>{preview.email}</strong> to join <strong>{preview.organisation.name}</strong> as{' '}
        {preview.role === 'admin' ? 'an Admin' : 'a Member'}.
      </Text>
      <Text size="sm" c="dimmed">
        The link works once and until {expires}.
      </Text>
    </Stack>
  );
}

/** A new person: chooses a password, joins, and is signed in with it. */
function CreateAccount({ token, preview }: { token: string; preview: Preview }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: { token, password, confirmPassword },
    schema: acceptInvitationBody,
    prepare: loadPasswordPolicy,
    submit: async (body) => {
      const answer = await api.request<{ message: string }>('/v1/organisation/invitations/accept', {
        method: 'POST',
        body,
        anonymous: true,
      });
      try {
        await signIn(preview.email, password);
      } catch {
        // the account exists and joined; signing in can be done from the login page
        return answer.message;
      }
      await navigate('/organisation', { replace: true });
      return answer.message;
    },
    fallbackError: ACCEPT_FAILED,
    describeError: failureText,
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text>
          Choose a password for your new account, <strong>{preview.email}</strong>. Following the link proved
          the address, so you can sign in straight away.
        </Text>
        <NewPasswordFields
          password={password}
          confirmPassword={confirmPassword}
          onPasswordChange={setPassword}
          onConfirmPasswordChange={setConfirmPassword}
          passwordLabel="Password"
          confirmLabel="Confirm password"
        />
        <OutcomeAlert outcome={outcome} />
        <Button type="submit" loading={busy} fullWidth>
          Create account and join
        </Button>
      </Stack>
    </form>
  );
}

/** The signed-in invitee: one click, then the session continues in the new organisation. */
function AcceptSignedIn({ token, preview }: { token: string; preview: Preview }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: { token },
    submit: async (body) => {
      const answer = await api.post<{ message: string; token: string; user: SessionUser }>(
        '/v1/organisation/invitations/accept',
        body,
      );
      replaceAccessToken(answer.token);
      updateSessionUser(answer.user);
      // everything cached belonged to the old organisation
      queryClient.clear();
      await navigate('/organisation', { replace: true });
      return answer.message;
    },
    fallbackError: ACCEPT_FAILED,
    describeError: failureText,
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          An account belongs to one organisation. If you are the only member of your current one, it is closed
          (with its data) when you join {preview.organisation.name}.
        </Text>
        <OutcomeAlert outcome={outcome} />
        <Button type="submit" loading={busy} fullWidth>
          Accept invitation
        </Button>
      </Stack>
    </form>
  );
}

function Decision({ token, preview }: { token: string; preview: Preview }) {
  const session = useSession();
  if (session.status === 'loading') {
    return (
      <Group gap="xs" role="status">
        <Loader size="sm" aria-hidden="true" />
        <Text>Loading...</Text>
      </Group>
    );
  }
  if (session.status === 'authenticated') {
    if (session.user.email === preview.email) return <AcceptSignedIn token={token} preview={preview} />;
    return (
      <Stack gap="md">
        <Alert color="yellow">
          You are signed in as {session.user.email}, and this invitation is for {preview.email}. Sign out,
          then accept it as {preview.email}.
        </Alert>
        <Button variant="default" onClick={() => void signOut()}>
          Sign out
        </Button>
      </Stack>
    );
  }
  if (preview.accountExists) {
    return (
      <Stack gap="md">
        <Text>
          There is already an account for <strong>{preview.email}</strong>. Sign in with it to accept the
          invitation.
        </Text>
        <Button
          component={Link}
          to="/login"
          state={{ from: `/invitation?token=${encodeURIComponent(token)}` }}
          fullWidth
        >
          Sign in to accept
        </Button>
      </Stack>
    );
  }
  return <CreateAccount token={token} preview={preview} />;
}

/** The page an invitation mail links to (`/invitation?token=…`). */
export default function InvitationPage() {
  useDocumentTitle('Invitation · rfckit');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const preview = useQuery({
    queryKey: ['invitation-preview', token],
    queryFn: ({ signal }) =>
      api.request<Preview>('/v1/organisation/invitations/preview', {
        method: 'POST',
        body: { token },
        anonymous: true,
        signal,
      }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });

  if (token === '' || preview.isError) {
    return (
      <Card title="Invitation">
        <Alert color="red" title="This invitation cannot be used">
          {token === ''
            ? 'The link has no invitation token. Open the link from the invitation message again.'
            : failureText(preview.error, 'The invitation could not be loaded. Please try again.')}
        </Alert>
        <Anchor component={Link} to="/welcome">
          Back to the start page
        </Anchor>
      </Card>
    );
  }
  if (preview.isPending) {
    return (
      <Card title="Invitation">
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>Loading...</Text>
        </Group>
      </Card>
    );
  }
  return (
    <Card title={`Join ${preview.data.organisation.name}`}>
      <Summary preview={preview.data} />
      <Decision token={token} preview={preview.data} />
    </Card>
  );
}
