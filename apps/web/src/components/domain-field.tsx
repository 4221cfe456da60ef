import { TextInput, type TextInputProps } from '@mantine/core';

import { monospaceInput } from './request-form.ts';

/** A domain name field as every lookup form has it: no spelling, capitalisation or autofill help. */
export function DomainField({ monospace = false, ...props }: TextInputProps & { monospace?: boolean }) {
  return (
    <TextInput
      label="Domain"
      placeholder="example.com"
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      {...(monospace ? { styles: monospaceInput } : {})}
      {...props}
    />
  );
}
