import { Stack } from '@mantine/core';
import { loadPasswordPolicy } from '@rfckit/standards';
import { useEffect } from 'react';

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
  /** The account's email and names: the strength meter counts them as easy to guess. */
  userInputs?: string[];
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
  userInputs = [],
}: NewPasswordFieldsProps) {
  useEffect(() => {
    // the common-password list is a chunk of its own: fetched on the pages that set a password, early
    loadPasswordPolicy().catch(() => {
      // the form's check says it is not ready; the server checks anyway
    });
  }, []);
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
        <PasswordStrengthMeter password={password} userInputs={userInputs} />
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
