import { securityTxtOperations } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { ModeSwitch } from '../../components/mode-switch.tsx';
import { omitBlank, OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { CtrlEnterHint } from '../../components/paste-validator.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { FetchValidator, PublicKeyField } from './fetch-validator.tsx';
import { ValidationResultView } from './validation-result.tsx';

const placeholder = [
  'Contact: mailto:security@example.com',
  'Encryption: https://example.com/pgp-key.txt',
  'Expires: 2026-12-31T23:59:59Z',
  'Policy: https://example.com/security-policy.html',
].join('\n');

/** Validate pasted content, or have the server fetch a site's file and add the HTTP checks. */
export function ValidatorTab() {
  return (
    <ModeSwitch
      label="Where the file comes from"
      modes={[
        { value: 'paste', label: 'Paste the file', panel: <PasteValidator /> },
        { value: 'fetch', label: 'Fetch from a site', panel: <FetchValidator /> },
      ]}
    />
  );
}

function PasteValidator() {
  const { form, request, onSubmit } = useOperationForm({
    operation: securityTxtOperations.validate,
    initialValues: { content: '', publicKey: '' },
    toBody: (values) => omitBlank(values, 'publicKey'),
    errorField: 'content',
    fallbackError: 'security.txt content is required',
  });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="security.txt validator"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: 'Validating the file…',
        empty: 'Paste a security.txt file and choose Validate to see every finding with its line.',
        errorMessage: (error) => failureMessage(error, 'Validation failed'),
        success: (data, sent) => ({
          title: data.valid ? 'Valid security.txt' : 'Invalid security.txt',
          tone: data.valid ? 'positive' : 'negative',
          // the text the result is about, to quote its lines
          children: <ValidationResultView result={data} content={sent?.content ?? ''} />,
        }),
      }}
    >
      <CodeTextarea
        label="security.txt content"
        description={
          <>
            The file as published, signed or not.
            <CtrlEnterHint />
          </>
        }
        placeholder={placeholder}
        minRows={8}
        maxRows={24}
        {...form.getInputProps('content')}
      />
      <PublicKeyField {...form.getInputProps('publicKey')} />
    </OperationForm>
  );
}
