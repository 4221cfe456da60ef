import { Alert, Button, Group, Paper, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import type { FormEvent, ReactNode } from 'react';

import { useFocusOnAnswer } from './operation-form.tsx';
import { RequirementBadge } from './requirement-badge.tsx';
import { ResultPanel, type ResultPanelState } from './result-panel.tsx';

interface GeneratorFormProps {
  /** The form's accessible name, e.g. 'DKIM record generator'. */
  formLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The settings. */
  children: ReactNode;
  /** What the settings give, recomputed on every change; shown under them as the live preview. */
  preview?: ReactNode;
  /** The reason the last submit was refused, when it names none of the fields. */
  error?: ReactNode;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The result of the last submit. */
  result: ResultPanelState;
  resultLabel: string;
}

/** A generator tab: settings, a live preview, the refusal of a submit, the submit button and the result. */
export function GeneratorForm({
  formLabel,
  onSubmit,
  children,
  preview,
  error,
  submitLabel,
  pendingLabel,
  pending,
  result,
  resultLabel,
}: GeneratorFormProps) {
  const { answerRef, submitRef } = useFocusOnAnswer(pending);
  return (
    <Stack gap="lg">
      <form onSubmit={onSubmit} noValidate aria-label={formLabel}>
        <Stack gap="md">
          {children}
          {preview !== undefined && (
            <Paper withBorder p="sm" aria-live="polite" aria-label="Live preview" component="section">
              <Stack gap="sm">
                <Text size="sm" fw={600}>
                  Live preview
                </Text>
                {preview}
              </Stack>
            </Paper>
          )}
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            {/* never off for empty fields: submit names what is missing (the one input rule) */}
            <Button type="submit" disabled={pending} ref={submitRef}>
              {pending ? pendingLabel : submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={result} label={resultLabel} focusRef={answerRef} />
    </Stack>
  );
}

interface SigningDomainFieldsProps {
  /** The domain field's props from the form (`getInputProps('domain')`): value, change, error and blur check. */
  domainProps: GetInputPropsReturnType;
  selectorProps: GetInputPropsReturnType;
  domainDescription: string;
  selectorDescription: string;
  domainPlaceholder?: string;
  selectorPlaceholder?: string;
}

/** The d= and s= of a DKIM or ARC signer: where its key is published, selector._domainkey.domain. */
export function SigningDomainFields({
  domainProps,
  selectorProps,
  domainDescription,
  selectorDescription,
  domainPlaceholder = 'example.com',
  selectorPlaceholder,
}: SigningDomainFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput
        {...domainProps}
        label="Domain"
        description={domainDescription}
        placeholder={domainPlaceholder}
        required
        autoComplete="off"
        spellCheck={false}
      />
      <TextInput
        {...selectorProps}
        label="Selector"
        description={selectorDescription}
        placeholder={selectorPlaceholder}
        required
        autoComplete="off"
        spellCheck={false}
      />
    </SimpleGrid>
  );
}

export interface AlgorithmChoice<A extends string> {
  value: A;
  label?: string;
  badge?: 'MUST' | 'MUST NOT';
  note: string;
}

/** The signature algorithm (a=) as radios, each with its requirement level and a note. */
export function AlgorithmRadios<A extends string>({
  choices,
  value,
  onChange,
  description,
}: {
  choices: readonly AlgorithmChoice<A>[];
  value: A;
  onChange: (value: A) => void;
  description: string;
}) {
  return (
    <Radio.Group label="Algorithm" description={description} value={value} onChange={(v) => onChange(v as A)}>
      <Stack gap="xs" mt="xs">
        {choices.map((choice) => (
          <Radio
            key={choice.value}
            value={choice.value}
            label={
              <Group gap="xs" wrap="nowrap">
                <Text span ff="monospace" size="sm">
                  {choice.label ?? choice.value}
                </Text>
                {choice.badge && <RequirementBadge level={choice.badge} size="xs" />}
              </Group>
            }
            description={choice.note}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
