import { dnskeyOperations, spfOperations } from '@rfckit/standards';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { failWith, succeedWith } from '../test/api.ts';
import { renderWithProviders } from '../test/render.tsx';
import { DomainField } from './domain-field.tsx';
import { omitBlank, OperationForm, useOperationForm } from './operation-form.tsx';
import { PasteValidator } from './paste-validator.tsx';

// A form on the shared parts, as a tool builds it: the SPF verify body (a domain, a record or both).
function DomainAndRecordForm() {
  const { form, request, onSubmit } = useOperationForm({
    operation: spfOperations.verify,
    initialValues: { domain: '', spfRecord: '' },
    toBody: (values) => omitBlank(values, 'domain', 'spfRecord'),
    errorField: 'domain',
    fallbackError: 'Failed',
  });
  return (
    <OperationForm
      request={request}
      onSubmit={onSubmit}
      resultLabel="Result"
      submitLabel="Validate"
      pendingLabel="Validating..."
      panel={{
        pending: 'Checking',
        empty: 'Nothing yet',
        success: () => ({ title: 'Done', children: null }),
      }}
    >
      <DomainField {...form.getInputProps('domain')} />
      <textarea aria-label="Record" {...form.getInputProps('spfRecord')} />
    </OperationForm>
  );
}

describe('the one input rule of the shared form parts', () => {
  afterEach(() => vi.unstubAllGlobals());

  function setup(form: React.ReactElement) {
    const fetchMock = succeedWith({});
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(form);
    return { user, fetchMock };
  }

  it('checks a filled field on blur with the body schema’s message, and clears it on change', async () => {
    const { user, fetchMock } = setup(<DomainAndRecordForm />);
    const domain = screen.getByLabelText('Domain');
    await user.type(domain, 'not a domain!');
    expect(domain).toBeValid();
    await user.tab();
    const message = "'not a domain!' is not a domain name: it contains a space";
    expect(spfOperations.verify.body.safeParse({ domain: 'not a domain!' }).error?.issues[0]?.message).toBe(
      message,
    );
    expect(domain).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(domain).toHaveAttribute('aria-invalid', 'true');
    await user.clear(domain);
    await user.type(domain, 'example.com');
    expect(domain).toBeValid();
    await user.tab();
    expect(domain).toBeValid();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says nothing when a blank field loses focus, and names it on submit', async () => {
    const { user, fetchMock } = setup(<DomainAndRecordForm />);
    const domain = screen.getByLabelText('Domain');
    await user.click(domain);
    await user.tab();
    expect(domain).toBeValid();
    const submit = screen.getByRole('button', { name: 'Validate' });
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(domain).toHaveAccessibleDescription(expect.stringContaining('Domain is required'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a pasted record without a domain when the body allows it', async () => {
    const { user, fetchMock } = setup(<DomainAndRecordForm />);
    await user.type(screen.getByLabelText('Record'), 'v=spf1 -all');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ spfRecord: 'v=spf1 -all' });
  });

  it('clears the last failure when a new submission is stopped by a finding', async () => {
    const fetchMock = failWith('The record could not be checked', 'SERVFAIL', 422);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<DomainAndRecordForm />);
    await user.type(screen.getByLabelText('Record'), 'v=spf1 -all');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText(/The record could not be checked/)).toBeVisible();
    await user.clear(screen.getByLabelText('Record'));
    await user.type(screen.getByLabelText('Domain'), 'not a domain!');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(screen.getByLabelText('Domain')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/The record could not be checked/)).not.toBeInTheDocument();
    expect(screen.getByText('Nothing yet')).toBeVisible();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('gives the paste-and-validate tab the same rule: enabled when empty, the required message on submit', async () => {
    const { user, fetchMock } = setup(
      <PasteValidator
        operation={dnskeyOperations.validate}
        field="record"
        label="DNSKEY record"
        description="Paste a record."
        placeholder="257 3 13 …"
        fallbackError="Validation failed"
        panel={{ pending: '', empty: '', success: () => ({ title: 'Done', children: null }) }}
      />,
    );
    const submit = screen.getByRole('button', { name: 'Validate' });
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(screen.getByLabelText(/^DNSKEY record/)).toHaveAccessibleDescription(
      expect.stringContaining('DNSKEY record is required'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
