import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useLocation } from 'react-router';

export function NotFoundPage() {
  useDocumentTitle('Page not found · rfckit');
  const { pathname } = useLocation();
  return (
    <Stack gap="md" py="xl" maw={640}>
      <Title order={1}>Page not found</Title>
      <Text>
        There is no page at <code>{pathname}</code>. It may have moved, or the address may be mistyped.
      </Text>
      <Anchor component={Link} to="/welcome">
        Go to the rfckit home page
      </Anchor>
    </Stack>
  );
}
