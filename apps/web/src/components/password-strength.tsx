import { Progress, Stack, Text } from '@mantine/core';

export const STRENGTH_LABELS = ['Very Weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;
export type StrengthLabel = (typeof STRENGTH_LABELS)[number];

export interface PasswordStrength {
  /** 0 to 5: one point each for length ≥ 8, a lowercase letter, an uppercase letter, a digit, a special character. */
  score: number;
  /** The score as a percentage of 5. */
  percent: number;
  label: StrengthLabel;
}

/** Spec part 1 §5: five one-point checks, labelled Very Weak to Strong. */
export function passwordStrength(password: string): PasswordStrength {
  const checks = [
    password.length >= 8,
    /[a-z]/.test(password),
    /[A-Z]/.test(password),
    /\d/.test(password),
    /[^A-Za-z0-9]/.test(password),
  ];
  const score = checks.filter(Boolean).length;
  // 0 and 1 points are both Very Weak: five labels for six scores
  const label = STRENGTH_LABELS[Math.max(score, 1) - 1] ?? 'Very Weak';
  return { score, percent: (score / 5) * 100, label };
}

const colours: Record<StrengthLabel, string> = {
  'Very Weak': 'red',
  Weak: 'orange',
  Fair: 'yellow',
  Good: 'teal',
  Strong: 'green',
};

/** The strength meter under a new-password field; says nothing until something is typed. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  if (password === '') return null;
  const { percent, label } = passwordStrength(password);
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
