import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { DataTable } from '../../components/data-table.tsx';
import { api } from '../../lib/api.ts';
import type { Outcome } from '../../lib/form-submission.ts';
import { signOut } from '../../lib/session.ts';
import { InviteMemberForm } from './invite-member-form.tsx';
import { failureText, teamKey, type TeamRow } from './organisation-types.ts';

const ACTION_FAILED = 'The change could not be made. Please try again.';

/** A destructive step waiting for its confirmation. */
type Confirmation =
  { kind: 'remove'; row: TeamRow } | { kind: 'leave'; row: TeamRow } | { kind: 'revoke'; row: TeamRow };

function label(row: TeamRow): string {
  return row.name ?? row.email;
}

const confirmationText: Record<
  Confirmation['kind'],
  (row: TeamRow) => { title: string; body: string; action: string }
> = {
  remove: (row) => ({
    title: `Remove ${label(row)}?`,
    body: `${row.email} loses access to this organisation at once and is signed out. Their account stays, in an organisation of its own.`,
    action: 'Remove member',
  }),
  leave: () => ({
    title: 'Leave this organisation?',
    body: 'You lose access to its information, team and activity at once and are signed out. Your account stays, in an organisation of its own.',
    action: 'Leave organisation',
  }),
  revoke: (row) => ({
    title: `Revoke the invitation to ${row.email}?`,
    body: 'The link in the invitation stops working at once. You can invite the address again later.',
    action: 'Revoke invitation',
  }),
};

function RoleBadge({ role }: { role: TeamRow['role'] }) {
  return (
    <Badge variant="light" color={role === 'Admin' ? 'blue' : 'gray'}>
      {role}
    </Badge>
  );
}

function StatusBadge({ row }: { row: TeamRow }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color={row.status === 'Active' ? 'green' : 'yellow'}>
        {row.status}
      </Badge>
      {row.expired && (
        <Text size="xs" c="dimmed">
          link expired
        </Text>
      )}
    </Group>
  );
}

interface RowActionsProps {
  row: TeamRow;
  isAdmin: boolean;
  busy: boolean;
  onRole: (row: TeamRow, role: 'admin' | 'member') => void;
  onResend: (row: TeamRow) => void;
  onConfirm: (confirmation: Confirmation) => void;
}

function RowActions({ row, isAdmin, busy, onRole, onResend, onConfirm }: RowActionsProps) {
  if (!isAdmin) {
    // a member manages only their own membership
    return row.you ? (
      <Button size="xs" variant="default" disabled={busy} onClick={() => onConfirm({ kind: 'leave', row })}>
        Leave
      </Button>
    ) : null;
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" disabled={busy} aria-label={`Manage ${label(row)}`}>
          Manage
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {row.kind === 'member' ? (
          <>
            {row.role === 'Member' ? (
              <Menu.Item onClick={() => onRole(row, 'admin')}>Make Admin</Menu.Item>
            ) : (
              <Menu.Item onClick={() => onRole(row, 'member')}>Make Member</Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => onConfirm({ kind: row.you ? 'leave' : 'remove', row })}>
              {row.you ? 'Leave organisation' : 'Remove from organisation'}
            </Menu.Item>
          </>
        ) : (
          <>
            <Menu.Item onClick={() => onResend(row)}>Resend invitation</Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => onConfirm({ kind: 'revoke', row })}>
              Revoke invitation
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

interface TeamMembersProps {
  organisationId: string;
  isAdmin: boolean;
  userId: string;
}

/** Spec part 1 §2: the team-members table (Active members, Pending invitations) and 'Add Member' for admins. */
export function TeamMembers({ organisationId, isAdmin, userId }: TeamMembersProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const team = useQuery({
    queryKey: teamKey(organisationId),
    queryFn: ({ signal }) =>
      api.get<{ members: TeamRow[] }>('/v1/organisation/members', signal).then((data) => data.members),
  });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Outcome>(null);
  // kept while the dialog closes, so its text does not vanish mid-animation
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  function ask(confirmation: Confirmation) {
    setConfirming(confirmation);
    setDialogOpen(true);
  }

  /** Runs one change, reports it above the table and reloads the team (and the caller's role). */
  async function run(change: () => Promise<{ message: string }>) {
    setBusy(true);
    setNotice(null);
    try {
      const { message } = await change();
      setNotice({ kind: 'done', message });
    } catch (error) {
      setNotice({ kind: 'error', message: failureText(error, ACTION_FAILED) });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: teamKey(organisationId) });
      await queryClient.invalidateQueries({ queryKey: ['organisation', userId] });
    }
  }

  function changeRole(row: TeamRow, role: 'admin' | 'member') {
    void run(() =>
      api.request<{ message: string }>(`/v1/organisation/members/${encodeURIComponent(row.id)}`, {
        method: 'PATCH',
        body: { role },
      }),
    );
  }

  function resend(row: TeamRow) {
    void run(() =>
      api.post<{ message: string }>(`/v1/organisation/invitations/${encodeURIComponent(row.id)}/resend`, {}),
    );
  }

  async function confirm() {
    const pending = confirming;
    setDialogOpen(false);
    if (pending === null) return;
    if (pending.kind === 'revoke') {
      await run(() =>
        api.request<{ message: string }>(
          `/v1/organisation/invitations/${encodeURIComponent(pending.row.id)}`,
          {
            method: 'DELETE',
          },
        ),
      );
      return;
    }
    if (pending.kind === 'leave') {
      setBusy(true);
      try {
        await api.request(`/v1/organisation/members/${encodeURIComponent(pending.row.id)}`, {
          method: 'DELETE',
        });
      } catch (error) {
        setBusy(false);
        setNotice({ kind: 'error', message: failureText(error, ACTION_FAILED) });
        return;
      }
      // leaving signs this account out everywhere: end the local session too
      await signOut();
      queryClient.clear();
      await navigate('/login');
      return;
    }
    await run(() =>
      api.request<{ message: string }>(`/v1/organisation/members/${encodeURIComponent(pending.row.id)}`, {
        method: 'DELETE',
      }),
    );
  }

  const text = confirming === null ? null : confirmationText[confirming.kind](confirming.row);

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="team-members">
      <Stack gap="md">
        <Title order={2} size="h3" id="team-members">
          Team members
        </Title>
        {team.isPending && (
          <Group gap="xs" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text>Loading...</Text>
          </Group>
        )}
        {team.isError && <Alert color="red">{team.error.message}</Alert>}
        {notice !== null && (
          <Alert
            color={notice.kind === 'done' ? 'green' : 'red'}
            withCloseButton
            onClose={() => setNotice(null)}
          >
            {notice.message}
          </Alert>
        )}
        {team.data && (
          <DataTable
            label="Members and invitations"
            minWidth={640}
            verticalSpacing="sm"
            highlightOnHover
            rows={team.data}
            rowKey={(row) => `${row.kind}-${row.id}`}
            columns={[
              {
                header: 'Name',
                rowHeader: true,
                cellProps: { fw: 500 },
                cell: (row) => (
                  <>
                    {row.name ?? '—'}
                    {row.you && (
                      <Text span size="xs" c="dimmed" ml={6}>
                        (you)
                      </Text>
                    )}
                  </>
                ),
              },
              { header: 'Email', cell: (row) => row.email },
              { header: 'Role', cell: (row) => <RoleBadge role={row.role} /> },
              { header: 'Status', cell: (row) => <StatusBadge row={row} /> },
              {
                header: <VisuallyHidden>Actions</VisuallyHidden>,
                // the card shows the button alone; its own label names the member
                cardLabel: null,
                cellProps: { ta: 'right' },
                cell: (row) => (
                  <RowActions
                    row={row}
                    isAdmin={isAdmin}
                    busy={busy}
                    onRole={changeRole}
                    onResend={resend}
                    onConfirm={ask}
                  />
                ),
              },
            ]}
          />
        )}
        {isAdmin && (
          <InviteMemberForm
            onInvited={() => queryClient.invalidateQueries({ queryKey: teamKey(organisationId) })}
          />
        )}
      </Stack>
      <Modal opened={dialogOpen} onClose={() => setDialogOpen(false)} title={text?.title} centered>
        <Stack gap="md">
          <Text>{text?.body}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialogOpen(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm()}>
              {text?.action}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
