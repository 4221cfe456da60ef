import { Stack, type TextareaProps } from '@mantine/core';
import { type SecurityTxtFetchResultData, securityTxtOperations } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { omitBlank, OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { AttemptsView, FetchSourceView } from './fetch-source.tsx';
import { ValidationResultView } from './validation-result.tsx';

function resultTitle(data: SecurityTxtFetchResultData): string {
  if (data.source === null) return 'No security.txt found';
  return data.valid ? 'Valid security.txt' : 'Invalid security.txt';
}

function FetchResultView({ data }: { data: SecurityTxtFetchResultData }) {
  return (
    <Stack gap="lg">
      {data.source && <FetchSourceView source={data.source} />}
      {(data.source === null || data.attempts.length > 1) && <AttemptsView attempts={data.attempts} />}
      <ValidationResultView result={data} content={data.source?.content ?? ''} />
    </Stack>
  );
}

/** The signer's key a signed file is verified with; both validator modes take it. */
export function PublicKeyField(props: TextareaProps) {
  return (
    <CodeTextarea
      label="Signer’s OpenPGP public key (optional)"
      description="For a signed file: paste the key it should be signed with, and the signature is verified."
      placeholder="-----BEGIN PGP PUBLIC KEY BLOCK-----"
      minRows={2}
      maxRows={10}
      {...props}
    />
  );
}

/** The Validator's fetch mode: the server retrieves the site's file and adds the HTTP checks. */
export function FetchValidator() {
  const { form, request, onSubmit } = useOperationForm({
    operation: securityTxtOperations.fetch,
    initialValues: { domain: '', publicKey: '' },
    toBody: (values) => omitBlank(values, 'publicKey'),
    errorField: 'domain',
    fallbackError: 'Domain is required',
  });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Fetch and validate security.txt"
      resultLabel="Fetch result"
      submitLabel="Fetch and validate"
      pendingLabel="Fetching..."
      hint="Adds the RFC 9116 §3 checks: location, https, certificate, Content-Type, charset and Canonical."
      panel={{
        pending: 'Fetching the file and validating it…',
        empty:
          'Enter a site and choose Fetch and validate to see where the file was found and every finding.',
        errorMessage: (error) => failureMessage(error, 'Validation failed'),
        success: (data) => ({
          title: resultTitle(data),
          tone: data.valid ? 'positive' : 'negative',
          children: <FetchResultView data={data} />,
        }),
      }}
    >
      <DomainField
        label="Site"
        description="A domain such as example.com, or any URL of the site. The server asks https://<domain>/.well-known/security.txt, then /security.txt, then both over http; a URL with a port is asked at that port only. Only public addresses are fetched."
        inputMode="url"
        autoComplete="url"
        {...form.getInputProps('domain')}
      />
      <PublicKeyField {...form.getInputProps('publicKey')} />
    </OperationForm>
  );
}
