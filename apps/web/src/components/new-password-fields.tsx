import { Stack } from '@mantine/core';

import { PasswordField } from './password-field.tsx';
import { PasswordStrengthMeter } from './password-strength.tsx';

interface NewPasswordFieldsProps {
  password: string;
  confirmPassword: string;
  onPasswordChange: (value: string) => void;
  onConfirmPasswordChange: (value: string) => void;
  passwordLabel?: string;
  confirmLabel?: string;
  description?: string;
}

/** A new password with its strength meter and the confirmation, as register, reset and profile ask. */
export function NewPasswordFields({
  password,
  confirmPassword,
  onPasswordChange,
  onConfirmPasswordChange,
  passwordLabel = 'New password',
  confirmLabel = 'Confirm new password',
  description,
}: NewPasswordFieldsProps) {
  return (
    <>
      <Stack gap="xs">
        <PasswordField
          label={passwordLabel}
          description={description}
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => onPasswordChange(event.currentTarget.value)}
        />
        <PasswordStrengthMeter password={password} />
      </Stack>
      <PasswordField
        label={confirmLabel}
        autoComplete="new-password"
        required
        value={confirmPassword}
        onChange={(event) => onConfirmPasswordChange(event.currentTarget.value)}
      />
    </>
  );
}
