import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router';

import { acceptAllChoice, rejectAllChoice, saveConsent, setConsentSettingsOpen } from '../../lib/consent.ts';

interface CookieBannerProps {
  /** Called after a choice is saved: the banner disappears and focus needs a new home. */
  onDecided: () => void;
}

/** Shown until the visitor makes a consent choice (spec part 1 §4). */
export function CookieBanner({ onDecided }: CookieBannerProps) {
  const titleId = useId();
  function decide(choice: typeof rejectAllChoice) {
    saveConsent(choice);
    onDecided();
  }
  return (
    <Paper
      component="section"
      role="region"
      aria-labelledby={titleId}
      shadow="lg"
      withBorder
      p="md"
      style={{
        position: 'fixed',
        insetInline: 'var(--mantine-spacing-md)',
        bottom: 'var(--mantine-spacing-md)',
        zIndex: 300,
        maxWidth: 720,
        marginInline: 'auto',
      }}
    >
      <Title order={2} size="h5" id={titleId} mb={4}>
        Cookie consent
      </Title>
      <Text size="sm">
        rfckit stores only what it needs to work: your theme and this choice, in your browser. It sets no
        analytics or marketing cookies and loads no third-party scripts. Read the{' '}
        <Link to="/cookie-policy">cookie policy</Link>.
      </Text>
      <Group gap="sm" mt="md" justify="flex-end">
        <Button type="button" variant="default" onClick={() => setConsentSettingsOpen(true)}>
          Customise
        </Button>
        <Button type="button" variant="default" onClick={() => decide(rejectAllChoice)}>
          Reject All
        </Button>
        <Button type="button" onClick={() => decide(acceptAllChoice)}>
          Accept All
        </Button>
      </Group>
    </Paper>
  );
}
