import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { ORGANISATION_MESSAGES, updateOrganisationBody } from '@rfckit/standards';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';

import { api } from '../../lib/api.ts';
import { useFormSubmission } from '../../lib/form-submission.ts';
import { updateSessionUser, useSession } from '../../lib/session.ts';
import {
  failureText,
  organisationKey,
  type Organisation,
  type OrganisationAnswer,
} from './organisation-types.ts';
import { TeamMembers } from './team-members.tsx';

const fields = [
  { name: 'name', label: 'Organisation name', type: 'text', autoComplete: 'organization', required: true },
  { name: 'domain', label: 'Domain', type: 'text', autoComplete: 'off', required: false },
  { name: 'adminEmail', label: 'Admin email', type: 'email', autoComplete: 'email', required: false },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', required: false },
] as const;
const longFields = [
  { name: 'address', label: 'Address', autoComplete: 'street-address' },
  { name: 'description', label: 'Description', autoComplete: 'off' },
] as const;

type FieldName = (typeof fields)[number]['name'] | (typeof longFields)[number]['name'];
type Values = Record<FieldName, string>;

function valuesOf(organisation: Organisation): Values {
  return {
    name: organisation.name,
    domain: organisation.domain ?? '',
    adminEmail: organisation.adminEmail ?? '',
    phone: organisation.phone ?? '',
    address: organisation.address ?? '',
    description: organisation.description ?? '',
  };
}

/** Spec part 1 §4: messages containing 'successfully' show green, any other red. */
function Message({ text }: { text: string }) {
  return <Alert color={text.includes('successfully') ? 'green' : 'red'}>{text}</Alert>;
}

function OrganisationForm({ answer, userId }: { answer: OrganisationAnswer; userId: string }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const { organisation } = answer;
  const isAdmin = answer.role === 'admin';
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Values>(() => valuesOf(organisation));
  const { busy, outcome, onSubmit, clearOutcome } = useFormSubmission({
    body: values,
    schema: updateOrganisationBody,
    submit: async (body) => {
      const saved = await api.put<{ message: string; organisation: Organisation }>('/v1/organisation', body);
      queryClient.setQueryData<OrganisationAnswer>(organisationKey(userId), {
        organisation: saved.organisation,
        role: answer.role,
      });
      // the header and dashboard name the organisation too
      if (session.status === 'authenticated') {
        updateSessionUser({
          ...session.user,
          organisation: { id: saved.organisation.id, name: saved.organisation.name },
        });
      }
      setValues(valuesOf(saved.organisation));
      setEditing(false);
      return ORGANISATION_MESSAGES.updated;
    },
    fallbackError: ORGANISATION_MESSAGES.updateFailed,
    describeError: failureText,
  });

  function startEditing() {
    setValues(valuesOf(organisation));
    clearOutcome();
    setEditing(true);
  }

  function cancel() {
    setValues(valuesOf(organisation));
    clearOutcome();
    setEditing(false);
  }

  // read-only, the form follows the latest answer; while editing, the user's own values
  const shown = editing ? values : valuesOf(organisation);

  function change(name: FieldName, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="organisation-details">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={2} size="h3" id="organisation-details">
              Organisation information
            </Title>
            {isAdmin &&
              (editing ? (
                <Button type="button" variant="default" onClick={cancel} disabled={busy}>
                  Cancel
                </Button>
              ) : (
                <Button type="button" variant="default" onClick={startEditing}>
                  Edit
                </Button>
              ))}
          </Group>
          {!isAdmin && (
            <Text size="sm" c="dimmed">
              Only the organisation&apos;s admins can change this information.
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {fields.map((field) => (
              <TextInput
                key={field.name}
                label={field.label}
                type={field.type}
                autoComplete={field.autoComplete}
                required={editing && field.required}
                readOnly={!editing}
                variant={editing ? 'default' : 'filled'}
                value={shown[field.name]}
                onChange={(event) => change(field.name, event.currentTarget.value)}
              />
            ))}
          </SimpleGrid>
          {longFields.map((field) => (
            <Textarea
              key={field.name}
              label={field.label}
              autoComplete={field.autoComplete}
              autosize
              minRows={2}
              maxRows={8}
              readOnly={!editing}
              variant={editing ? 'default' : 'filled'}
              value={shown[field.name]}
              onChange={(event) => change(field.name, event.currentTarget.value)}
            />
          ))}
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
  );
}

/** Spec part 1 §2 Organisation Settings: the information form and the team; saves for real (docs/architecture.md §10). */
export default function OrganisationPage() {
  useDocumentTitle('Organisation · rfckit');
  const session = useSession();
  const userId = session.status === 'authenticated' ? session.user.id : null;
  const answer = useQuery({
    queryKey: organisationKey(userId),
    queryFn: ({ signal }) => api.get<OrganisationAnswer>('/v1/organisation', signal),
    enabled: userId !== null,
  });
  // the header's menu shows the role: keep it in step when an admin changed it meanwhile
  const liveRole = answer.data?.role;
  useEffect(() => {
    if (session.status === 'authenticated' && liveRole !== undefined && liveRole !== session.user.role) {
      updateSessionUser({ ...session.user, role: liveRole });
    }
  }, [session, liveRole]);

  return (
    <Stack gap="lg" py="lg" maw={960}>
      <Group gap="sm" align="center">
        <Title order={1}>Organisation Settings</Title>
        {answer.data && (
          <Badge variant="light" color={answer.data.role === 'admin' ? 'blue' : 'gray'}>
            You are {answer.data.role === 'admin' ? 'an Admin' : 'a Member'}
          </Badge>
        )}
      </Group>
      {answer.isPending && (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>Loading...</Text>
        </Group>
      )}
      {answer.isError && <Alert color="red">{answer.error.message}</Alert>}
      {answer.data && userId !== null && (
        <>
          <OrganisationForm answer={answer.data} userId={userId} />
          <TeamMembers
            organisationId={answer.data.organisation.id}
            isAdmin={answer.data.role === 'admin'}
            userId={userId}
          />
          <Text>
            Scripts and CI pipelines call the tool API with the organisation&rsquo;s{' '}
            <Anchor component={Link} to="/api-keys" underline="always">
              API keys
            </Anchor>
            {answer.data.role === 'admin' ? ', which you create and revoke there.' : ', which admins manage.'}
          </Text>
        </>
      )}
    </Stack>
  );
}
