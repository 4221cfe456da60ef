import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ToolDefinition } from '@rfckit/standards';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';

import { useSession } from '../../lib/session.ts';

interface WelcomePageProps {
  /** Registry groups with the tools that have a page, in sidebar order. */
  toolGroups: ReadonlyArray<{ group: string; tools: readonly ToolDefinition[] }>;
}

const principles = [
  {
    title: 'Every verdict is explained',
    text: 'Each finding names the RFC section it comes from, its requirement level (MUST, SHOULD, MAY …) and how to fix it.',
  },
  {
    title: 'Checked against the standard',
    text: 'Records are parsed field by field against the current RFCs, including the updates that superseded older advice.',
  },
  {
    title: 'An API for automation',
    text: 'Everything the pages do is available over a JSON API, documented with an OpenAPI reference at /docs.',
  },
  {
    title: 'No tracking',
    text: 'No analytics or marketing cookies and no third-party scripts. The records you check are processed and not stored.',
  },
];

// the form's inputs load after the first paint: the welcome page has a tight first-screen budget
const QuickSignIn = lazy(() =>
  import('./quick-sign-in.tsx').then((module) => ({ default: module.QuickSignIn })),
);

/** The public landing page (spec part 1 §2: /welcome). */
export function WelcomePage({ toolGroups }: WelcomePageProps) {
  useDocumentTitle('rfckit · RFC compliance standards tool');
  const session = useSession();
  return (
    <Stack gap={48} py="lg">
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="xl">
        <Stack
          gap="md"
          maw={760}
          style={{ gridColumn: session.status === 'anonymous' ? 'span 2' : '1 / -1' }}
        >
          <Text fw={700} c="var(--mantine-color-anchor)" tt="uppercase" size="sm">
            RFC compliance standards tool
          </Text>
          <Title order={1} fz={{ base: 32, sm: 44 }} lh={1.15}>
            Check your email, DNS and web security configuration against the RFCs
          </Title>
          <Text size="lg">
            rfckit helps IT, mail and DNS administrators and developers validate and build records such as
            SPF, DKIM, DMARC and DNSSEC keys. It tells you what is wrong, which standard says so, and what to
            change.
          </Text>
          <Group gap="sm" mt="xs">
            <Button component={Link} to="/register" size="md">
              Get Started
            </Button>
            <Button component={Link} to="/login" size="md" variant="default">
              Sign In
            </Button>
          </Group>
        </Stack>
        {session.status === 'anonymous' && (
          <Suspense fallback={null}>
            <QuickSignIn />
          </Suspense>
        )}
      </SimpleGrid>

      <section aria-labelledby="welcome-principles">
        <Title order={2} id="welcome-principles" mb="md">
          How rfckit works
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
          {principles.map((item) => (
            <Card key={item.title} withBorder padding="lg">
              <Title order={3} size="h5" mb={6}>
                {item.title}
              </Title>
              <Text size="sm">{item.text}</Text>
            </Card>
          ))}
        </SimpleGrid>
      </section>

      <section aria-labelledby="welcome-tools">
        <Title order={2} id="welcome-tools" mb="md">
          Tools
        </Title>
        <Stack gap="xl">
          {toolGroups.map(({ group, tools }) => (
            <div key={group}>
              <Title order={3} size="h4" mb="sm">
                {group}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                {tools.map((tool) => (
                  <Card key={tool.id} withBorder padding="lg">
                    <Group gap="xs" mb={6}>
                      <Title order={4} size="h5">
                        <Anchor component={Link} to={tool.route}>
                          {tool.name}
                        </Anchor>
                      </Title>
                      {tool.draft && (
                        <Badge size="xs" color="yellow.4" c="black" variant="filled" radius="sm">
                          draft
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm">{tool.summary}</Text>
                    <Text size="xs" c="dimmed" mt="sm">
                      {tool.rfcs.join(' · ')}
                    </Text>
                  </Card>
                ))}
              </SimpleGrid>
            </div>
          ))}
        </Stack>
      </section>
    </Stack>
  );
}
