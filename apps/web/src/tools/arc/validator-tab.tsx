import { Alert } from '@mantine/core';
import { type ArcChainResult, arcOperations, arcValidateRequired } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { CtrlEnterHint } from '../../components/paste-validator.tsx';
import { ValidationResultView } from './validation-result.tsx';

const placeholder = [
  'ARC-Seal: i=1; a=rsa-sha256; cv=none; d=lists.example.org; s=arc; t=…; b=…',
  'ARC-Message-Signature: i=1; a=rsa-sha256; c=relaxed/relaxed; d=lists.example.org; …',
  'ARC-Authentication-Results: i=1; lists.example.org; spf=pass …',
  'From: …',
].join('\n');

const verdictTitle: Record<ArcChainResult, string> = {
  pass: 'ARC chain passes',
  fail: 'ARC chain fails',
  none: 'No ARC chain',
};

/** The Validator tab: validates the ARC chain of pasted header fields or a whole message, keys from DNS. */
export function ValidatorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: arcOperations.validate,
    initialValues: { domain: '', record: '' },
    toBody: ({ domain, record }) => ({ record, domain: domain.trim() }),
    errorField: 'record',
    fallbackError: arcValidateRequired,
  });
  // one alert under both fields: the message names what is missing
  const inputError = Object.values(form.errors)[0];
  const field = (name: 'domain' | 'record') => ({ ...form.getInputProps(name), error: undefined });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Validate an ARC chain"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: 'Validating the chain…',
        empty:
          'Enter your domain, paste the ARC header fields or the whole message and choose Validate to check the chain here.',
        errorMessage: (error) => `Validation failed: ${error.message}`,
        success: (data) => ({
          title: verdictTitle[data.chain.result],
          ...(data.chain.result === 'none' ? {} : { tone: data.valid ? 'positive' : 'negative' }),
          children: <ValidationResultView result={data} />,
        }),
      }}
    >
      <DomainField
        monospace
        description="Your receiving domain: the table shows which seals come from it or its subdomains"
        required
        {...field('domain')}
      />
      <CodeTextarea
        label="ARC headers or message"
        description={
          <>
            The ARC-Seal, ARC-Message-Signature and ARC-Authentication-Results fields, or the whole message as
            received (up to 1 MiB). Paste the whole message to have the body hash of the newest signature
            checked. Keys are looked up in DNS.
            <CtrlEnterHint />
          </>
        }
        placeholder={placeholder}
        required
        minRows={8}
        maxRows={24}
        {...field('record')}
      />
      {inputError && (
        <Alert color="red" variant="light" role="alert">
          {inputError}
        </Alert>
      )}
    </OperationForm>
  );
}
