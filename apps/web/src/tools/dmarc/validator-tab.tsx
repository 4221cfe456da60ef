import { dmarcOperations, type DmarcValidationResultData } from '@rfckit/standards';

import { CodeTextarea } from '../../components/code-textarea.tsx';
import { DomainField } from '../../components/domain-field.tsx';
import { omitBlank, OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { CtrlEnterHint } from '../../components/paste-validator.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { ValidationResultView } from './validation-result.tsx';

function title(result: DmarcValidationResultData): string {
  if (result.record === null)
    return result.domain ? `No DMARC policy for ${result.domain}` : 'No DMARC record';
  return result.valid ? 'Valid DMARC record' : 'Invalid DMARC record';
}

/**
 * A domain (the server discovers its policy through DNS), a pasted record, or both: the record is
 * then checked as if it were published at the domain, before you publish it.
 */
export function ValidatorTab() {
  const { form, request, onSubmit } = useOperationForm({
    operation: dmarcOperations.validate,
    initialValues: { domain: '', record: '' },
    toBody: (values) => omitBlank(values, 'record', 'domain'),
    errorField: 'record',
    fallbackError: 'Validation failed',
  });
  const domain = form.values.domain.trim();

  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      formLabel="DMARC validator"
      resultLabel="Validation result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      hint="The server asks DNS the questions a receiver would: at most eight for the tree walk."
      panel={{
        pending: domain ? `Looking up the DMARC policy of ${domain}…` : 'Validating the record…',
        empty:
          'Enter a domain to look up its DMARC policy, paste a record to check it, or both to check the record as if it were published at the domain.',
        errorMessage: (error) => failureMessage(error, 'Validation failed'),
        success: (data) => ({
          title: title(data),
          tone: data.valid ? 'positive' : 'negative',
          children: <ValidationResultView result={data} />,
        }),
      }}
    >
      <DomainField
        description="The server follows the RFC 9989 DNS tree walk from this domain, as a receiver does."
        {...form.getInputProps('domain')}
      />
      <CodeTextarea
        label="DMARC record"
        description={
          <>
            The TXT value, or the quoted strings dig prints. With a domain, it is checked as if published at
            _dmarc.{'{domain}'}.
            <CtrlEnterHint />
          </>
        }
        placeholder="v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com"
        minRows={3}
        maxRows={12}
        {...form.getInputProps('record')}
      />
    </OperationForm>
  );
}
