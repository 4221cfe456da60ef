import { Button, Group, Stack, Text } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import type { OperationBody, ToolOperation } from '@rfckit/standards';
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';

import { useOperation } from '../lib/operations.ts';
import { requestPanelState, type RequestLike, type RequestPanelText } from './request-form.ts';
import { ResultPanel } from './result-panel.tsx';

/** The values with the given optional fields left out while blank, as the bodies take them. */
export function omitBlank<Values extends Record<string, string>, Key extends keyof Values>(
  values: Values,
  ...optional: Key[]
): Omit<Values, Key> & Partial<Pick<Values, Key>> {
  const body: Partial<Values> = { ...values };
  for (const key of optional) if (values[key]?.trim() === '') delete body[key];
  return body as Omit<Values, Key> & Partial<Pick<Values, Key>>;
}

/** What a body schema's `safeParse` answers, as far as a form reads it. */
export interface BodyCheck<Body> {
  success: boolean;
  data?: Body;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

/** The errors key of a finding that names none of the fields, shown by the form as a whole. */
export const formErrorKey = '$form';

export interface CheckedFormOptions<Values extends object, Body> {
  /** The fields, named as the body's properties so that a finding of the body check lands on its field. */
  initialValues: Values;
  /** The body schema's check of the values. */
  check: (values: Values) => BodyCheck<Body>;
  /** The field a finding that names none of the fields is shown on; without one, on the form (`formErrorKey`). */
  errorField?: keyof Values & string;
  /** The message when the check fails without one. */
  fallbackError: string;
}

/** Whether a field holds something to check on blur: a blank field is told only on submit. */
function filled(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'number';
}

/**
 * The one input rule for every tool form: a filled field is checked when it loses focus, every
 * field on submit, with the body schema's own messages (the ones the server would give).
 * `validated(values)` shows the findings and gives the checked body, or undefined when there are any.
 */
export function useCheckedForm<Values extends object, Body>({
  initialValues,
  check,
  errorField,
  fallbackError,
}: CheckedFormOptions<Values, Body>) {
  const shownOn = errorField ?? formErrorKey;

  // the body check's findings, each on the field it names
  function findings(values: Values): FormErrors {
    const checked = check(values);
    if (checked.success) return {};
    const errors: FormErrors = {};
    for (const issue of checked.error?.issues ?? []) {
      const named = issue.path[0];
      const field = typeof named === 'string' && Object.hasOwn(values, named) ? named : shownOn;
      errors[field] ??= issue.message;
    }
    return Object.keys(errors).length > 0 ? errors : { [shownOn]: fallbackError };
  }

  const form = useForm<Values>({
    initialValues,
    validate: findings,
    // a finding on the whole form is about what was typed before: any change clears it
    onValuesChange: () => {
      if (errorField === undefined) form.clearFieldError(formErrorKey);
    },
    enhanceGetInputProps: ({ field, form: self }) => ({
      onBlur: () => {
        const values = self.getValues();
        if (!filled((values as Record<string, unknown>)[field])) return;
        // only what the schema says of this field: a rule over several fields waits for submit
        const own = check(values).error?.issues.find((issue) => issue.path[0] === field);
        if (own === undefined) self.clearFieldError(field);
        else self.setFieldError(field, own.message);
      },
    }),
  });

  function validated(values: Values): Body | undefined {
    const errors = findings(values);
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      return undefined;
    }
    form.clearErrors();
    // the checked body, as the schema reads it
    return check(values).data;
  }

  return { form, validated };
}

type FormValues = Record<string, string>;

export interface OperationFormOptions<Op extends ToolOperation, Values extends FormValues> {
  operation: Op;
  /** The fields, named as the body's properties so that a finding of the body check lands on its field. */
  initialValues: Values;
  /** The request body of the values (optional fields left out when blank); the values themselves by default. */
  toBody?: (values: Values) => OperationBody<Op>;
  /** The field a finding of the body check is shown on when it names none of the fields. */
  errorField: keyof Values & string;
  /** The message when the check fails without one. */
  fallbackError: string;
  /** The mutation that sends the body; `useOperation(operation)` by default (give one that streams progress). */
  request?: OperationMutation<Op>;
}

type OperationMutation<Op extends ToolOperation> = Pick<
  ReturnType<typeof useOperation<Op>>,
  'isPending' | 'isError' | 'error' | 'data' | 'variables' | 'mutate' | 'reset'
>;

/**
 * A tool form on one approach: @mantine/form holds the values, the operation's own body schema
 * checks them on blur and on submit (`useCheckedForm`), and the operation's mutation sends them
 * only when they pass.
 */
export function useOperationForm<Op extends ToolOperation, Values extends FormValues>({
  operation,
  initialValues,
  toBody = (values) => values as OperationBody<Op>,
  errorField,
  fallbackError,
  request: given,
}: OperationFormOptions<Op, Values>) {
  const own = useOperation(operation);
  const request = given ?? own;
  const { form, validated } = useCheckedForm({
    initialValues,
    check: (values: Values) => operation.body.safeParse(toBody(values)) as BodyCheck<OperationBody<Op>>,
    errorField,
    fallbackError,
  });

  /**
   * Checks `values` and sends them; on a finding, shows it and sends nothing (and answers false).
   * Either way the last result or failure goes: it answered other input, and left on screen it
   * reads as this one's.
   */
  function send(values: Values): boolean {
    if (request.isPending) return false;
    const body = validated(values);
    if (body === undefined) {
      request.reset();
      return false;
    }
    request.mutate(body);
    return true;
  }

  function onSubmit(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    send(form.getValues());
  }

  return { form, request, onSubmit, send };
}

export interface OperationFormProps<T, V> {
  request: RequestLike<T, V>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The form's accessible name. */
  formLabel?: string | undefined;
  /** The result region's accessible name. */
  resultLabel: string;
  panel: RequestPanelText<T, V>;
  submitLabel: string;
  pendingLabel: string;
  /** A short note left of the submit button. */
  hint?: ReactNode;
  children: ReactNode;
}

/**
 * Moves focus to the answer when a request settles and focus was left nowhere: the submit button is
 * disabled while the request runs, which drops its focus to the page body, and a keyboard or
 * screen-reader user would otherwise start again from the top of the page.
 */
export function useFocusOnAnswer(pending: boolean) {
  const answerRef = useRef<HTMLElement | null>(null);
  const submitRef = useRef<HTMLButtonElement | null>(null);
  const wasPending = useRef(false);
  useEffect(() => {
    const settled = wasPending.current && !pending;
    wasPending.current = pending;
    if (!settled) return;
    const active = document.activeElement;
    if (active === null || active === document.body || active === submitRef.current)
      answerRef.current?.focus();
  }, [pending]);
  return { answerRef, submitRef };
}

/** A tool's request form: its fields, a note and the submit button, then the result panel. */
export function OperationForm<T, V>({
  request,
  onSubmit,
  formLabel,
  resultLabel,
  panel,
  submitLabel,
  pendingLabel,
  hint,
  children,
}: OperationFormProps<T, V>) {
  const { answerRef, submitRef } = useFocusOnAnswer(request.isPending);
  return (
    <Stack gap="lg">
      <form onSubmit={onSubmit} noValidate aria-label={formLabel}>
        <Stack gap="sm">
          {children}
          <Group justify={hint ? 'space-between' : 'flex-end'} align="center">
            {hint && (
              <Text size="xs" c="dimmed">
                {hint}
              </Text>
            )}
            {/* never off for empty fields: submit names what is missing (the one input rule) */}
            <Button type="submit" disabled={request.isPending} ref={submitRef}>
              {request.isPending ? pendingLabel : submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={requestPanelState(request, panel)} label={resultLabel} focusRef={answerRef} />
    </Stack>
  );
}
