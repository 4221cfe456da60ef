import { NativeSelect } from '@mantine/core';
import { dnskeyOperations, dnssecChainTypes } from '@rfckit/standards';
import { useSearchParams } from 'react-router';

import { DomainField } from '../../components/domain-field.tsx';
import { useLinkedRun } from '../../components/linked-run.ts';
import { OperationForm, useOperationForm } from '../../components/operation-form.tsx';
import { failureMessage } from '../../lib/failure-message.ts';
import { ChainResultView, chainTitle } from './chain-result.tsx';

/**
 * The chain of trust of a name: the server walks from the root trust anchor down, checking every
 * DS, DNSKEY set and signature itself (RFC 4035 §5), and ends at the RRset asked for or its proof
 * of absence. `?domain=…&type=…` in the address fills the form and runs it, so other tools (DANE)
 * can link to a name's chain.
 */
export function ChainTab() {
  const [searchParams] = useSearchParams();
  const linked = {
    domain: searchParams.get('domain')?.trim() ?? '',
    type: searchParams.get('type')?.trim().toUpperCase() || 'A',
  };
  const { form, request, send } = useOperationForm({
    operation: dnskeyOperations.chain,
    initialValues: linked,
    errorField: 'domain',
    fallbackError: 'Chain validation failed',
  });
  const { domain, type } = form.getValues();

  const run = useLinkedRun({
    tab: 'chain',
    linked,
    fromAddress: linked.domain !== '',
    fill: form.setValues,
    send,
  });

  return (
    <OperationForm
      request={request}
      onSubmit={(event) => {
        event.preventDefault();
        run(form.getValues());
      }}
      formLabel="DNSSEC chain of trust"
      resultLabel="Chain of trust result"
      submitLabel="Validate chain"
      pendingLabel="Validating..."
      hint="Every signature is verified by rfckit, not taken from a resolver's AD bit."
      panel={{
        pending: `Following the chain of trust from the root to ${domain.trim()} ${type}…`,
        empty:
          'Enter a domain to see its chain of trust from the root: DS records, DNSKEYs, signatures and the verdict.',
        errorMessage: (error) => failureMessage(error, 'Chain validation failed'),
        success: (data) => ({
          title: chainTitle(data),
          tone: data.status === 'secure' ? 'positive' : data.status === 'bogus' ? 'negative' : undefined,
          children: <ChainResultView chain={data} />,
        }),
      }}
    >
      <DomainField
        description="The name whose records are validated, e.g. www.example.com."
        {...form.getInputProps('domain')}
      />
      <NativeSelect
        label="Record type"
        description="The RRset (or its proof of absence) the chain ends at."
        data={dnssecChainTypes}
        {...form.getInputProps('type')}
      />
    </OperationForm>
  );
}
