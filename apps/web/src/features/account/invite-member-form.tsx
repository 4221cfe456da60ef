import { Button, Group, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { inviteMemberBody, ORGANISATION_MESSAGES, type TeamRole } from '@rfckit/standards';
import { useState } from 'react';

import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { api } from '../../lib/api.ts';
import { useFormSubmission } from '../../lib/form-submission.ts';
import { failureText } from './organisation-types.ts';

const roleOptions = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

const empty = { firstName: '', lastName: '', email: '', role: 'member' as TeamRole };

/** 'Add Member' (spec part 1 §2, §5): mails a real invitation with a single-use link. */
export function InviteMemberForm({ onInvited }: { onInvited: () => unknown }) {
  const [values, setValues] = useState(empty);
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: values,
    schema: inviteMemberBody,
    submit: async (body) => {
      await api.post('/v1/organisation/invitations', {
        ...body,
        firstName: body.firstName.trim(),
        lastName: body.lastName.trim(),
        email: body.email.trim(),
      });
      setValues(empty);
      await onInvited();
      return ORGANISATION_MESSAGES.invitationSent;
    },
    fallbackError: ORGANISATION_MESSAGES.invitationFailed,
    describeError: failureText,
  });

  function change(name: 'firstName' | 'lastName' | 'email', value: string) {
    setValues((current) => ({ ...current, [name]: value }));
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="add-member" mt="md">
      <Title order={3} size="h4" id="add-member">
        Add Member
      </Title>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="First name"
              autoComplete="off"
              required
              value={values.firstName}
              onChange={(event) => change('firstName', event.currentTarget.value)}
            />
            <TextInput
              label="Last name"
              autoComplete="off"
              required
              value={values.lastName}
              onChange={(event) => change('lastName', event.currentTarget.value)}
            />
            <TextInput
              label="Email"
              type="email"
              autoComplete="off"
              required
              value={values.email}
              onChange={(event) => change('email', event.currentTarget.value)}
            />
            <Select
              label="Role"
              data={roleOptions}
              value={values.role}
              allowDeselect={false}
              onChange={(value) =>
                setValues((current) => ({ ...current, role: value === 'admin' ? 'admin' : 'member' }))
              }
            />
          </SimpleGrid>
          <OutcomeAlert outcome={outcome} />
          <Group>
            <Button type="submit" loading={busy}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
