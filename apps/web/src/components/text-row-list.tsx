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

export interface TextRowListProps {
  legend: string;
  /** Under the legend: what the rows are for. */
  description: ReactNode;
  /** Each row's label, numbered from 1: 'MX host pattern 1'. */
  rowLabel: string;
  addLabel: string;
  /** The remove buttons' name before the row number; 'Remove ' and the lower-cased row label by default. */
  removeLabel?: string;
  values: readonly string[];
  onChange(values: string[]): void;
  /** The error of row `index`, if any. */
  errorOf(index: number): string | undefined;
  placeholderOf(index: number): string;
  /** Most rows; the add button is off at this count. */
  max: number;
  /** Typing help of every row's input, e.g. inputMode="email". */
  inputProps?: Pick<TextInputProps, 'inputMode' | 'type'>;
}

/**
 * A list of one-line text values the user grows and shrinks a row at a time (report addresses, MX
 * patterns): each row labelled by its number, a remove button from the second row on, an add button.
 */
export function TextRowList({
  legend,
  description,
  rowLabel,
  addLabel,
  removeLabel = `Remove ${rowLabel.toLowerCase()}`,
  values,
  onChange,
  errorOf,
  placeholderOf,
  max,
  inputProps = { type: 'text' },
}: TextRowListProps) {
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
              placeholder={placeholderOf(index)}
              value={value}
              onChange={(event) =>
                onChange(values.map((v, i) => (i === index ? event.currentTarget.value : v)))
              }
              error={errorOf(index)}
              autoCapitalize="off"
              autoComplete="off"
              spellCheck={false}
              {...inputProps}
            />
            {values.length > 1 && (
              <ActionIcon
                variant="default"
                size="lg"
                mb={errorOf(index) ? 22 : 0}
                aria-label={`${removeLabel} ${index + 1}`}
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
          disabled={values.length >= max}
        >
          {addLabel}
        </Button>
      </Stack>
    </Fieldset>
  );
}
