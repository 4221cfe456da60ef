import { Center, Container, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { regionDeniedMessage } from '@rfckit/standards';
import { useEffect, useState, type ReactNode } from 'react';

import { checkRegion, type RegionVerdict } from '../lib/region.ts';

// A check that answers quickly shows nothing at all rather than a flash of the Security Check screen.
const SECURITY_CHECK_DELAY_MS = 300;

// one check per page load, shared by every mount (StrictMode mounts twice)
let pending: Promise<RegionVerdict> | null = null;
function regionVerdict(): Promise<RegionVerdict> {
  pending ??= checkRegion();
  return pending;
}

function SecurityCheck() {
  return (
    <Center mih="100vh" component="main">
      <Stack align="center" gap="sm" role="status">
        <Loader aria-hidden="true" />
        <Title order={1} size="h3">
          Security Check
        </Title>
        <Text>Verifying access permissions</Text>
      </Stack>
    </Center>
  );
}

export function AccessDenied({ country, source }: Pick<RegionVerdict, 'country' | 'source'>) {
  return (
    <Container size="sm" component="main" py="xl">
      <Stack align="center" gap="md" ta="center" mt="10vh">
        <ThemeIcon size={56} radius="xl" color="red" variant="light" aria-hidden="true">
          <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <circle cx="12" cy="12" r="9" />
            <path d="M5.6 5.6l12.8 12.8" />
          </svg>
        </ThemeIcon>
        <Title order={1}>Access Denied</Title>
        <Text size="lg">
          rfckit is not available in your region. For compliance reasons we cannot offer the service there.
        </Text>
        <Text fw={600} role="alert">
          {regionDeniedMessage(country)}
        </Text>
        <Text size="sm" c="dimmed">
          Location code {country},{' '}
          {source === 'time zone' ? "from your device's time zone" : 'as our server sees your connection'}. If
          you think this is wrong (a VPN, a proxy or a travelling device can cause it), connect from another
          network and reload the page.
        </Text>
      </Stack>
    </Container>
  );
}

/**
 * The region block (spec part 1 §2): the Security Check screen while the visitor's country is
 * looked up, then the app, or the Access Denied screen with the location code.
 */
export function AccessGate({
  children,
  check = regionVerdict,
}: {
  children: ReactNode;
  /** Where the verdict comes from; the page's own region check unless a test supplies one. */
  check?: () => Promise<RegionVerdict>;
}) {
  const [verdict, setVerdict] = useState<RegionVerdict | null>(null);
  const [slow, setSlow] = useState(false);

  useEffect(() => {
    let active = true;
    const timer = window.setTimeout(() => setSlow(true), SECURITY_CHECK_DELAY_MS);
    void check().then((result) => {
      if (active) setVerdict(result);
    });
    return () => {
      active = false;
      window.clearTimeout(timer);
    };
  }, [check]);

  if (verdict === null) return slow ? <SecurityCheck /> : null;
  if (!verdict.allowed) return <AccessDenied country={verdict.country} source={verdict.source} />;
  return children;
}
