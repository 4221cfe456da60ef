import { Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';

import { readConsent, saveConsent, type ConsentChoice } from '../../lib/consent.ts';

interface CookieSettingsModalProps {
  opened: boolean;
  onClose: () => void;
  /** Called after Save Preferences stored the choice. */
  onSaved: () => void;
  /** Called once the dialog has finished closing; the caller puts focus back. */
  onClosed: () => void;
}

interface Category {
  key: 'necessary' | keyof ConsentChoice;
  label: string;
  description: string;
  /** Cannot be changed here. */
  locked: boolean;
}

const categories: Category[] = [
  {
    key: 'necessary',
    label: 'Necessary',
    description:
      'Always on. Your theme, this consent choice and, once you sign in, your session. rfckit cannot work without them.',
    locked: true,
  },
  {
    key: 'analytics',
    label: 'Analytics',
    description:
      'Usage measurement. rfckit runs no analytics today; this records your permission for the future.',
    locked: false,
  },
  {
    key: 'functionality',
    label: 'Functionality',
    description: 'Optional conveniences beyond the basics. There are none to switch at present.',
    locked: true,
  },
  {
    key: 'marketing',
    label: 'Marketing',
    description: 'Advertising and campaign tracking. rfckit sets no marketing cookies.',
    locked: false,
  },
];

function initialChoice(): ConsentChoice {
  const stored = readConsent();
  return {
    analytics: stored?.analytics ?? false,
    functionality: stored?.functionality ?? false,
    marketing: stored?.marketing ?? false,
  };
}

/** The Customise dialog: four switches and Save Preferences, prefilled with the stored choice. */
export function CookieSettingsModal({ opened, onClose, onSaved, onClosed }: CookieSettingsModalProps) {
  // Composed by hand: the stock Modal header is a <header>, which would add a second banner landmark.
  return (
    <Modal.Root
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onClosed}
      returnFocus={false}
      size="lg"
    >
      <Modal.Overlay />
      <Modal.Content>
        <Group justify="space-between" p="md" pb={0} wrap="nowrap">
          <Modal.Title fw={650}>Cookie preferences</Modal.Title>
          <Modal.CloseButton aria-label="Close cookie preferences" />
        </Group>
        {/* mounted per opening, so the switches start from what is stored now */}
        <Modal.Body pt="md">{opened && <CookieSettingsForm onSaved={onSaved} />}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}

function CookieSettingsForm({ onSaved }: { onSaved: () => void }) {
  const [choice, setChoice] = useState<ConsentChoice>(initialChoice);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        saveConsent(choice);
        onSaved();
      }}
    >
      <Stack gap="lg">
        <Text size="sm">
          Choose which kinds of storage rfckit may use. You can change this at any time from Cookie Settings
          in the footer.
        </Text>
        {categories.map((category) => (
          <Switch
            key={category.key}
            label={category.label}
            // the label element wraps the description too; keep the accessible name to the label alone
            aria-label={category.label}
            description={category.description}
            checked={category.key === 'necessary' ? true : choice[category.key]}
            disabled={category.locked}
            onChange={(event) => {
              const { checked } = event.currentTarget;
              if (category.key !== 'necessary')
                setChoice((previous) => ({ ...previous, [category.key]: checked }));
            }}
          />
        ))}
        <Group justify="flex-end">
          <Button type="submit">Save Preferences</Button>
        </Group>
      </Stack>
    </form>
  );
}
