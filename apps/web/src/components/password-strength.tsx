import { Progress, Stack, Text } from '@mantine/core';
import { loadPasswordStrength, passwordScore } from '@rfckit/standards';
import { useEffect, useState } from 'react';

export const STRENGTH_LABELS = ['Very Weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;
export type StrengthLabel = (typeof STRENGTH_LABELS)[number];

export interface PasswordStrength {
  /** zxcvbn's score: 0 (too guessable) to 4 (very unguessable). */
  score: number;
  /** Points out of 5 (the score plus one) as a percentage. */
  percent: number;
  label: StrengthLabel;
}

/**
 * zxcvbn's estimate of how guessable a password is, with the spec's five labels (part 1 §5);
 * null until zxcvbn and its dictionaries have loaded (`loadPasswordStrength`).
 */
export function passwordStrength(password: string, userInputs: string[] = []): PasswordStrength | null {
  // an address's local part is what a password would borrow from it
  const inputs = userInputs.flatMap((input) =>
    input.includes('@') ? [input, input.split('@')[0] ?? ''] : [input],
  );
  const score = passwordScore(password, inputs);
  if (score === undefined) return null;
  return { score, percent: ((score + 1) / 5) * 100, label: STRENGTH_LABELS[score] };
}

const colours: Record<StrengthLabel, string> = {
  'Very Weak': 'red',
  Weak: 'orange',
  Fair: 'yellow',
  Good: 'teal',
  Strong: 'green',
};

/** Whether zxcvbn is loaded; starts loading it (a separate chunk) on the first page that asks. */
function useStrengthLoaded(): boolean {
  const [loaded, setLoaded] = useState(() => passwordScore('') !== undefined);
  useEffect(() => {
    if (loaded) return;
    let current = true;
    loadPasswordStrength().then(
      () => {
        if (current) setLoaded(true);
      },
      () => {
        // no meter rather than a broken page; the server still checks the password
      },
    );
    return () => {
      current = false;
    };
  }, [loaded]);
  return loaded;
}

/**
 * The strength meter under a new-password field; says nothing until something is typed (or while
 * zxcvbn loads). `userInputs` (the email, names) count as easy to guess.
 */
export function PasswordStrengthMeter({
  password,
  userInputs = [],
}: {
  password: string;
  userInputs?: string[];
}) {
  const loaded = useStrengthLoaded();
  if (password === '' || !loaded) return null;
  const strength = passwordStrength(password, userInputs);
  if (strength === null) return null;
  const { percent, label } = strength;
  return (
    <Stack gap={4}>
      <Progress.Root size="sm">
        <Progress.Section value={percent} color={colours[label]} aria-label="Password strength" />
      </Progress.Root>
      <Text size="sm" aria-live="polite">
        Password strength: {label} ({percent}%)
      </Text>
    </Stack>
  );
}
