import { Alert, Anchor, Badge, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ToolDefinition } from '@rfckit/standards';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import { ActivityActionBadge } from '../../components/activity-action-badge.tsx';
import { api } from '../../lib/api.ts';
import { displayName, useSession } from '../../lib/session.ts';

interface DashboardPageProps {
  /** Registry groups with the tools that have a page, in sidebar order. */
  toolGroups: ReadonlyArray<{ group: string; tools: readonly ToolDefinition[] }>;
}

interface ActivityRecord {
  id: string;
  action: string;
  username: string | null;
  created_at: string;
  description: string;
  ip_address: string | null;
}

interface ActivityPage {
  activities: ActivityRecord[];
  totalPages: number;
  totalRecords: number;
}

const RECENT_LIMIT = 3;

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Counter({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card withBorder padding="lg">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={32} fw={700} lh={1.2}>
        {value ?? '–'}
      </Text>
    </Card>
  );
}

/** Spec part 1 §2 Dashboard, with real counts (docs/architecture.md §10): the registry's tools and the audit log. */
export default function DashboardPage({ toolGroups }: DashboardPageProps) {
  useDocumentTitle('Dashboard · rfckit');
  const session = useSession();
  const user = session.status === 'authenticated' ? session.user : null;
  const recent = useQuery({
    queryKey: ['activity', 'recent', user?.id],
    queryFn: ({ signal }) =>
      api.get<ActivityPage>(`/v1/organisation/activity?page=1&limit=${RECENT_LIMIT}`, signal),
    enabled: user !== null,
  });
  const toolCount = toolGroups.reduce((sum, group) => sum + group.tools.length, 0);

  return (
    <Stack gap="xl" py="lg">
      <Stack gap={4}>
        {/* an email address has no spaces to break at */}
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          Welcome, {displayName(user)}
        </Title>
        <Text c="dimmed">Your rfckit tools and the latest activity of your account.</Text>
      </Stack>

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Counter label="Total tools" value={toolCount} />
        <Counter label="Categories" value={toolGroups.length} />
        <Counter label="Recent activity" value={recent.data?.totalRecords} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <section aria-labelledby="dashboard-tools">
          <Title order={2} id="dashboard-tools" size="h3" mb="md">
            Tools by category
          </Title>
          <Stack gap="lg">
            {toolGroups.map(({ group, tools }) => (
              <div key={group}>
                <Title order={3} size="h5" mb="xs">
                  {group}
                </Title>
                <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
                  {tools.map((tool) => (
                    <li key={tool.id}>
                      <Group gap="xs">
                        <Anchor component={Link} to={tool.route}>
                          {tool.name}
                        </Anchor>
                        {tool.draft && (
                          <Badge size="xs" color="yellow.4" c="black" variant="filled" radius="sm">
                            draft
                          </Badge>
                        )}
                      </Group>
                      <Text size="sm" c="dimmed">
                        {tool.summary}
                      </Text>
                    </li>
                  ))}
                </Stack>
              </div>
            ))}
          </Stack>
        </section>

        <section aria-labelledby="dashboard-activity">
          <Group justify="space-between" align="baseline" mb="md">
            <Title order={2} id="dashboard-activity" size="h3">
              Recent activity
            </Title>
            <Anchor component={Link} to="/activity" size="sm">
              View Activity
            </Anchor>
          </Group>
          {recent.isPending && (
            <Group gap="xs" role="status">
              <Loader size="sm" aria-hidden="true" />
              <Text size="sm">Loading activity...</Text>
            </Group>
          )}
          {recent.isError && (
            <Alert color="red" title="Error Loading Activities">
              {recent.error.message}
            </Alert>
          )}
          {recent.data && recent.data.activities.length === 0 && (
            <Text size="sm">No activity records yet.</Text>
          )}
          {recent.data && recent.data.activities.length > 0 && (
            <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
              {recent.data.activities.map((entry) => (
                <Card component="li" key={entry.id} withBorder padding="sm">
                  <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                    <ActivityActionBadge action={entry.action} />
                    <Text size="xs" c="dimmed" component="time" dateTime={entry.created_at}>
                      {timeFormat.format(new Date(entry.created_at))}
                    </Text>
                  </Group>
                  <Text size="sm" mt={6}>
                    {entry.description}
                  </Text>
                  {entry.ip_address !== null && (
                    <Text size="xs" c="dimmed">
                      From {entry.ip_address}
                    </Text>
                  )}
                </Card>
              ))}
            </Stack>
          )}
        </section>
      </SimpleGrid>
    </Stack>
  );
}
