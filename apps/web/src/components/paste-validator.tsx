import { Kbd } from '@mantine/core';
import type { OperationBody, OperationResult, ToolOperation } from '@rfckit/standards';
import type { ReactNode } from 'react';

import { CodeTextarea } from './code-textarea.tsx';
import { OperationForm, useOperationForm } from './operation-form.tsx';
import type { RequestPanelText } from './request-form.ts';

/** ' Ctrl + Enter validates.' after a pasted field's description. */
export function CtrlEnterHint({ action = 'validates' }: { action?: string }) {
  return (
    <>
      {' '}
      <Kbd size="xs">Ctrl</Kbd> + <Kbd size="xs">Enter</Kbd> {action}.
    </>
  );
}

export interface PasteValidatorProps<Op extends ToolOperation> {
  operation: Op;
  /** The body property the pasted text is sent as, e.g. `record`. */
  field: string;
  label: string;
  description: ReactNode;
  placeholder: string;
  minRows?: number;
  maxRows?: number;
  fallbackError: string;
  formLabel?: string;
  /** The button's text, 'Validate' by default, and its text while the request runs. */
  submitLabel?: string;
  pendingLabel?: string;
  resultLabel?: string;
  panel: RequestPanelText<OperationResult<Op>, OperationBody<Op>>;
}

/**
 * The paste-and-validate tab: one text area checked with the operation's body schema, the
 * Validate button and the result panel.
 */
export function PasteValidator<Op extends ToolOperation>({
  operation,
  field,
  label,
  description,
  placeholder,
  minRows = 4,
  maxRows = 14,
  fallbackError,
  formLabel,
  submitLabel = 'Validate',
  pendingLabel = 'Validating...',
  resultLabel = 'Validation result',
  panel,
}: PasteValidatorProps<Op>) {
  const { form, request, onSubmit } = useOperationForm({
    operation,
    initialValues: { [field]: '' },
    errorField: field,
    fallbackError,
  });
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel={formLabel}
      resultLabel={resultLabel}
      panel={panel}
      submitLabel={submitLabel}
      pendingLabel={pendingLabel}
    >
      <CodeTextarea
        label={label}
        description={description}
        placeholder={placeholder}
        minRows={minRows}
        maxRows={maxRows}
        {...form.getInputProps(field)}
      />
    </OperationForm>
  );
}
