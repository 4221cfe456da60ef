import { TextInput } from '@mantine/core';

import { PasswordField } from './password-field.tsx';

interface SignInFieldsProps {
  email: string;
  password: string;
  onEmailChange: (value: string) => void;
  onPasswordChange: (value: string) => void;
}

/** Email and current password, as the sign-in page and the welcome quick sign-in ask. */
export function SignInFields({ email, password, onEmailChange, onPasswordChange }: SignInFieldsProps) {
  return (
    <>
      <TextInput
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => onEmailChange(event.currentTarget.value)}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => onPasswordChange(event.currentTarget.value)}
      />
    </>
  );
}
