import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  Stack,
  Text,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { ReactNode } from 'react';

export interface TextRowsFieldProps {
  legend: string;
  /** Each row's label, numbered: 'Reporting URI 1'. */
  rowLabel: string;
  addLabel: string;
  values: string[];
  /** Findings by key: `${errorKey}.${index}` for a row. */
  errors: Record<string, string | undefined>;
  errorKey: string;
  description: ReactNode;
  placeholder: (index: number) => string;
  inputMode?: TextInputProps['inputMode'];
  maxRows: number;
  onChange(values: string[]): void;
}

/**
 * A list of one-line values (report addresses, URIs): a row can be added up to `maxRows`, and
 * removed only while more than one is left, so the list always has a field to type in.
 */
export function TextRowsField({
  legend,
  rowLabel,
  addLabel,
  values,
  errors,
  errorKey,
  description,
  placeholder,
  inputMode = 'text',
  maxRows,
  onChange,
}: TextRowsFieldProps) {
  return (
    <Fieldset legend={legend}>
      <Text component="div" size="sm" c="dimmed" mb="xs">
        {description}
      </Text>
      <Stack gap="xs">
        {values.map((value, index) => (
          // rows are only appended or removed whole; the index names the row
          <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={`${rowLabel} ${index + 1}`}
              placeholder={placeholder(index)}
              value={value}
              onChange={(event) =>
                onChange(values.map((v, i) => (i === index ? event.currentTarget.value : v)))
              }
              error={errors[`${errorKey}.${index}`]}
              type="text"
              inputMode={inputMode}
              autoCapitalize="off"
              autoComplete="off"
              spellCheck={false}
            />
            {values.length > 1 && (
              <ActionIcon
                variant="default"
                size="lg"
                mb={errors[`${errorKey}.${index}`] ? 22 : 0}
                aria-label={`Remove ${rowLabel.toLowerCase()} ${index + 1}`}
                onClick={() => onChange(values.filter((_, i) => i !== index))}
              >
                ×
              </ActionIcon>
            )}
          </Group>
        ))}
        <Button
          type="button"
          variant="default"
          size="xs"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => onChange([...values, ''])}
          disabled={values.length >= maxRows}
        >
          {addLabel}
        </Button>
      </Stack>
    </Fieldset>
  );
}
