import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { API_KEY_MESSAGES, API_KEY_NAME_MAX, createApiKeyBody } from '@rfckit/standards';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { CopyButton } from '../../components/copy-button.tsx';
import { OutcomeAlert } from '../../components/outcome-alert.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { useFormSubmission, type Outcome } from '../../lib/form-submission.ts';
import { useSession } from '../../lib/session.ts';

/** One key as `GET /v1/organisation/api-keys` lists it; the key itself is never sent again. */
interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdBy: { id: string; email: string; name: string | null } | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revoked: boolean;
}

const CREATE_FAILED = 'Failed to create the API key. Please try again.';
const REVOKE_FAILED = 'Failed to revoke the API key. Please try again.';
// a table squeezes a badge to its ellipsis otherwise
const fullLabel = { label: { overflow: 'visible' } } as const;
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatTime(value: string | null, never: string): string {
  return value === null ? never : timeFormat.format(new Date(value));
}

function CurlExample({ apiKey }: { apiKey: string }) {
  const origin = window.location.origin;
  return (
    <Code block>
      {`curl -X POST ${origin}/v1/dnskey/validate \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d '{"record": "example.com. 3600 IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4="}'`}
    </Code>
  );
}

/** The answer to a creation: the key, this once, with Copy. */
function NewKey({ name, value, onDone }: { name: string; value: string; onDone: () => void }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="api-key-created">
      <Stack gap="sm">
        <Alert color="green" id="api-key-created" title={`API key "${name}" created successfully!`}>
          <Text fw={700}>Store it now: it will not be shown again.</Text>
          <Text size="sm">
            rfckit keeps only a fingerprint of the key, so nobody can show it to you later. If you lose it,
            revoke it and create a new one.
          </Text>
        </Alert>
        <Group gap="sm" wrap="nowrap" align="flex-end">
          <TextInput
            label="New API key"
            readOnly
            value={value}
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            style={{ flex: 1 }}
          />
          <CopyButton value={value} label="Copy key" ariaLabel="Copy the new API key" size="sm" />
        </Group>
        <div>
          <Button type="button" variant="default" onClick={onDone}>
            I have stored the key
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: { name: string; key: string }) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const { busy, outcome, onSubmit } = useFormSubmission({
    body: { name },
    schema: createApiKeyBody,
    submit: async (body) => {
      const answer = await api.post<{ message: string; key: string; apiKey: ApiKey }>(
        '/v1/organisation/api-keys',
        { name: body.name.trim() },
      );
      onCreated({ name: answer.apiKey.name, key: answer.key });
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      return answer.message;
    },
    fallbackError: CREATE_FAILED,
  });

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="api-key-create">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="api-key-create">
            Create a key
          </Title>
          <TextInput
            label="Key name"
            description="What the key is for, e.g. 'CI pipeline'. Unique among the active keys."
            required
            maxLength={API_KEY_NAME_MAX}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          {/* success shows as the new key's panel */}
          {outcome?.kind === 'error' && <OutcomeAlert outcome={outcome} />}
          <div>
            <Button type="submit" loading={busy}>
              Create key
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}

function RevokeDialog({
  apiKey,
  onClose,
  onRevoked,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  onRevoked: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function revoke() {
    if (apiKey === null) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.request<{ message: string }>(
        `/v1/organisation/api-keys/${encodeURIComponent(apiKey.id)}`,
        { method: 'DELETE' },
      );
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      onRevoked(answer.message);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : REVOKE_FAILED);
    } finally {
      setBusy(false);
    }
  }

  function close() {
    setError(null);
    onClose();
  }

  return (
    <Modal opened={apiKey !== null} onClose={close} title="Revoke API key" centered>
      {apiKey !== null && (
        <Stack gap="md">
          <Text>
            Revoke &ldquo;{apiKey.name}&rdquo; ({apiKey.prefix}…)? Scripts that use it are refused from now
            on. This cannot be undone.
          </Text>
          {error !== null && <Alert color="red">{error}</Alert>}
          <Group justify="flex-end">
            <Button type="button" variant="default" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="button" color="red" onClick={() => void revoke()} loading={busy}>
              Revoke key
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function KeyTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  if (keys.length === 0) {
    return <Text c="dimmed">No API keys yet. Create one above.</Text>;
  }
  return (
    <DataTable
      label="API keys"
      minWidth={820}
      striped
      highlightOnHover
      rows={keys}
      rowKey={(key) => key.id}
      columns={[
        { header: 'Name', rowHeader: true, cellProps: { fw: 500 }, cell: (key) => key.name },
        {
          header: 'Key',
          cellProps: { style: { whiteSpace: 'nowrap' } },
          cell: (key) => <Code>{key.prefix}…</Code>,
        },
        {
          header: 'Created by',
          cell: (key) =>
            key.createdBy === null ? 'Deleted user' : (key.createdBy.name ?? key.createdBy.email),
        },
        { header: 'Created', cell: (key) => formatTime(key.createdAt, '') },
        { header: 'Last used', cell: (key) => formatTime(key.lastUsedAt, 'Never') },
        {
          header: 'Status',
          cell: (key) =>
            key.revoked ? (
              <Badge
                color="gray"
                variant="light"
                styles={fullLabel}
                title={`Revoked ${formatTime(key.revokedAt, '')}`}
              >
                Revoked
              </Badge>
            ) : (
              <Badge color="green" variant="light" styles={fullLabel}>
                Active
              </Badge>
            ),
        },
        {
          header: <VisuallyHidden>Actions</VisuallyHidden>,
          // the card shows the button alone; its own label names the key
          cardLabel: null,
          cell: (key) =>
            !key.revoked && (
              <Button
                type="button"
                size="xs"
                color="red"
                variant="light"
                onClick={() => onRevoke(key)}
                aria-label={`Revoke ${key.name}`}
              >
                Revoke
              </Button>
            ),
        },
      ]}
    />
  );
}

function KeyManager({ organisationId }: { organisationId: string }) {
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revoked, setRevoked] = useState<Outcome>(null);
  const keys = useQuery({
    queryKey: ['api-keys', organisationId],
    queryFn: ({ signal }) =>
      api.get<{ apiKeys: ApiKey[] }>('/v1/organisation/api-keys', signal).then((data) => data.apiKeys),
  });

  return (
    <Stack gap="lg">
      {created === null ? (
        <CreateKeyForm
          onCreated={(next) => {
            setRevoked(null);
            setCreated(next);
          }}
        />
      ) : (
        <NewKey name={created.name} value={created.key} onDone={() => setCreated(null)} />
      )}
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="api-key-list">
        <Stack gap="md">
          <Title order={2} size="h3" id="api-key-list">
            Keys of this organisation
          </Title>
          <OutcomeAlert outcome={revoked} />
          {keys.isPending && (
            <Group gap="xs" role="status">
              <Loader size="sm" aria-hidden="true" />
              <Text>Loading...</Text>
            </Group>
          )}
          {keys.isError && <Alert color="red">{keys.error.message}</Alert>}
          {keys.data && <KeyTable keys={keys.data} onRevoke={setRevoking} />}
        </Stack>
      </Paper>
      <RevokeDialog
        apiKey={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={(message) => {
          setRevoking(null);
          setRevoked({ kind: 'done', message });
        }}
      />
    </Stack>
  );
}

/** Organisation API keys (beyond the spec, for automation): admins create and revoke; members read why they cannot. */
export default function ApiKeysPage() {
  useDocumentTitle('API Keys · rfckit');
  const session = useSession();
  if (session.status !== 'authenticated') return null;
  const { user } = session;

  return (
    <Stack gap="lg" py="lg" maw={960}>
      <Title order={1}>API Keys</Title>
      <Text>
        An API key lets a script or a CI pipeline call the tool API of {user.organisation.name} without a
        password. Send it in the Authorization header. Keys work on tool routes only (see the{' '}
        <a href="/docs">API documentation</a>); account, organisation and billing routes refuse them.
      </Text>
      <CurlExample apiKey="rfk_…" />
      {user.role === 'admin' ? (
        <KeyManager organisationId={user.organisation.id} />
      ) : (
        <Alert color="blue" title={API_KEY_MESSAGES.adminOnly}>
          Only admins of {user.organisation.name} can create and revoke API keys. Ask an admin for a key if
          you need to automate checks.
        </Alert>
      )}
    </Stack>
  );
}
