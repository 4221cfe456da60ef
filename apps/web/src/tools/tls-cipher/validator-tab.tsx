import { TextInput } from '@mantine/core';
import { tlsCipherOperations } from '@rfckit/standards';

import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { monospaceInput } from '../../components/request-form.ts';
import { SuiteDetails } from './suite-details.tsx';

/** Spec part 2 §8: the cipher validator's failure text. */
export const validateFailure = (error: Error) => `Failed to validate cipher: ${error.message}`;

export function ValidatorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: tlsCipherOperations.validate,
    initialValues: { cipherSuite: '' },
    errorField: 'cipherSuite',
    fallbackError: 'Please enter a cipher suite to validate',
  });

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="Validate a cipher suite"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      hint="Looked up in the IANA TLS registry, rated from ciphersuite.info’s weaknesses."
      panel={{
        pending: 'Looking the suite up…',
        empty:
          'Enter a cipher suite and choose Validate to see its key exchange, cipher, level and advice here.',
        errorMessage: validateFailure,
        success: (data) => ({
          title: data.known ? data.cipher : `UNKNOWN: ${data.cipher}`,
          tone: data.isSecure ? 'positive' : data.known && !data.isInsecure ? undefined : 'negative',
          children: <SuiteDetails result={data} />,
        }),
      }}
    >
      <TextInput
        label="Cipher suite"
        description="An IANA name (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256), an OpenSSL or GnuTLS name, or the hex code (0xC0,0x2F or c02f)."
        placeholder="ECDHE-RSA-AES128-GCM-SHA256"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        styles={monospaceInput}
        {...form.getInputProps('cipherSuite')}
      />
    </OperationForm>
  );
}
