import { Textarea, type TextareaProps } from '@mantine/core';

import { monospaceInput, submitOnCtrlEnter } from './request-form.ts';

/**
 * The text area a record, a file, headers or a message is pasted into: monospace, growing with its
 * content, no spelling or capitalisation help, and Ctrl+Enter submits the form.
 */
export function CodeTextarea(props: TextareaProps) {
  return (
    <Textarea
      onKeyDown={submitOnCtrlEnter}
      autosize
      minRows={4}
      maxRows={14}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      styles={monospaceInput}
      {...props}
    />
  );
}
