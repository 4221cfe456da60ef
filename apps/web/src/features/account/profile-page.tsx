import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { changePasswordBody, loadPasswordPolicy, normaliseEmail } from '@rfckit/standards';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { PasswordField } from '../../components/password-field.tsx';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { api, ApiError, NETWORK_ERROR_MESSAGE, UNEXPECTED_ERROR_MESSAGE } from '../../lib/api.ts';
import { useFormSubmission } from '../../lib/form-submission.ts';
import { replaceAccessToken, updateSessionUser, useSession, type Profile } from '../../lib/session.ts';

const PROFILE_SAVED = 'Profile updated successfully!';
const PROFILE_FAILED = 'Failed to update profile. Please try again.';
const PASSWORD_FAILED = 'Failed to change password. Please try again.';
const CURRENT_PASSWORD_REQUIRED = 'Enter your current password to change your email address';

const fields = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', type: 'text', autoComplete: 'family-name' },
  { name: 'company', label: 'Company', type: 'text', autoComplete: 'organization' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel' },
] as const;

type FieldName = (typeof fields)[number]['name'];
type Values = Record<FieldName, string>;

function valuesOf(profile: Profile): Values {
  return {
    email: profile.email,
    firstName: profile.firstName ?? '',
    lastName: profile.lastName ?? '',
    company: profile.company ?? '',
    phone: profile.phone ?? '',
  };
}

/** Spec part 1 §4: messages containing 'successfully' show green, any other red. */
function Message({ text }: { text: string }) {
  return <Alert color={text.includes('successfully') ? 'green' : 'red'}>{text}</Alert>;
}

/** The server's own explanation, unless the call never got one. */
function failureText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return error.message === NETWORK_ERROR_MESSAGE || error.message === UNEXPECTED_ERROR_MESSAGE
    ? fallback
    : error.message;
}

function PasswordChange({ userInputs }: { userInputs: string[] }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: { currentPassword, newPassword, confirmPassword },
    schema: changePasswordBody,
    prepare: loadPasswordPolicy,
    submit: async (body) => {
      const answer = await api.post<{ message: string; token: string }>('/v1/auth/change-password', body);
      // every other session was signed out; this one continues with the fresh token
      replaceAccessToken(answer.token);
      setCurrentPassword('');
      setNewPassword('');
      setConfirmPassword('');
      return answer.message;
    },
    fallbackError: PASSWORD_FAILED,
    describeError: failureText,
  });

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="profile-password">
      <Title order={2} size="h3" id="profile-password" mb="md">
        Change password
      </Title>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.currentTarget.value)}
          />
          <NewPasswordFields
            password={newPassword}
            confirmPassword={confirmPassword}
            onPasswordChange={setNewPassword}
            onConfirmPasswordChange={setConfirmPassword}
            userInputs={userInputs}
          />
          {outcome !== null && <Message text={outcome.message} />}
          <div>
            <Button type="submit" loading={busy}>
              Change password
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Values>(() => valuesOf(profile));
  const [currentPassword, setCurrentPassword] = useState('');
  // a new address needs the current password: a stolen session alone must not move the account
  const emailChanged = normaliseEmail(values.email) !== profile.email;
  const { busy, outcome, onSubmit, clearOutcome } = useFormSubmission({
    body: values,
    submit: async (body) => {
      if (emailChanged && currentPassword === '') {
        throw new ApiError(CURRENT_PASSWORD_REQUIRED, 400, 'INVALID_PASSWORD');
      }
      const answer = await api.put<{ message: string; user: Profile }>('/v1/auth/profile', {
        ...body,
        email: body.email.trim(),
        ...(emailChanged ? { currentPassword } : {}),
      });
      setCurrentPassword('');
      queryClient.setQueryData(['profile', profile.id], answer.user);
      updateSessionUser(answer.user);
      setValues(valuesOf(answer.user));
      setEditing(false);
      // an email change waits for its confirmation link: the server's text says so
      return answer.user.pendingEmail !== null ? answer.message : PROFILE_SAVED;
    },
    fallbackError: PROFILE_FAILED,
    describeError: failureText,
  });

  function startEditing() {
    setValues(valuesOf(profile));
    setCurrentPassword('');
    clearOutcome();
    setEditing(true);
  }

  function cancel() {
    setValues(valuesOf(profile));
    setCurrentPassword('');
    clearOutcome();
    setEditing(false);
  }

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="profile-details">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={2} size="h3" id="profile-details">
                Personal information
              </Title>
              {editing ? (
                <Button type="button" variant="default" onClick={cancel} disabled={busy}>
                  Cancel
                </Button>
              ) : (
                <Button type="button" variant="default" onClick={startEditing}>
                  Edit
                </Button>
              )}
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              {fields.map((field) => (
                <TextInput
                  key={field.name}
                  label={field.label}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  readOnly={!editing}
                  variant={editing ? 'default' : 'filled'}
                  value={values[field.name]}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setValues((current) => ({ ...current, [field.name]: value }));
                  }}
                />
              ))}
            </SimpleGrid>
            {editing && emailChanged && (
              <PasswordField
                label="Current password"
                description="Needed to change your email address. We will tell your current address, with a link to undo the change."
                autoComplete="current-password"
                required
                value={currentPassword}
                onChange={(event) => setCurrentPassword(event.currentTarget.value)}
              />
            )}
            {profile.pendingEmail !== null && (
              <Text size="sm">
                Waiting for confirmation of the new address {profile.pendingEmail}: follow the link we sent
                there.
              </Text>
            )}
            {outcome !== null && <Message text={outcome.message} />}
            {editing && (
              <div>
                <Button type="submit" loading={busy}>
                  Save changes
                </Button>
              </div>
            )}
          </Stack>
        </form>
      </Paper>
      {editing && <PasswordChange userInputs={[profile.email]} />}
    </Stack>
  );
}

/** Spec part 1 §2 Profile Settings; saves for real (docs/architecture.md §10). */
export default function ProfilePage() {
  useDocumentTitle('Profile · rfckit');
  const session = useSession();
  const userId = session.status === 'authenticated' ? session.user.id : null;
  const profile = useQuery({
    queryKey: ['profile', userId],
    queryFn: ({ signal }) => api.get<{ user: Profile }>('/v1/auth/profile', signal).then((data) => data.user),
    enabled: userId !== null,
  });

  return (
    <Stack gap="lg" py="lg" maw={820}>
      <Title order={1}>Profile Settings</Title>
      {profile.isPending && (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>Loading...</Text>
        </Group>
      )}
      {profile.isError && <Alert color="red">{profile.error.message}</Alert>}
      {profile.data && <ProfileForm profile={profile.data} />}
    </Stack>
  );
}
