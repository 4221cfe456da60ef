import { validateMtaStsPolicy, validateMtaStsRecord } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// The API's answers are what the server computes: the validators from @rfckit/standards.
describe('MTA-STS validator', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function setup(fetchMock: ReturnType<typeof succeedWith>) {
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderWithProviders(<ValidatorTab />);
    return user;
  }

  it("asks for a policy on submit without a request, in the spec's words", async () => {
    const fetchMock = succeedWith({ kind: 'policy', ...validateMtaStsPolicy('') });
    const user = setup(fetchMock);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(screen.getByLabelText(/^MTA-STS policy/)).toHaveAccessibleDescription(
      expect.stringContaining('MTA-STS policy is required'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows each finding of a broken policy with its line, section and fix', async () => {
    const policy = 'version: STSv1\nmode: Enforce\nmx: mail.example.com\n';
    const fetchMock = succeedWith({ kind: 'policy', ...validateMtaStsPolicy(policy) });
    const user = setup(fetchMock);
    await user.click(screen.getByLabelText(/^MTA-STS policy/));
    await user.paste(policy);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const result = await screen.findByRole('region', { name: 'Validation result' });
    expect(await within(result).findByText('Invalid MTA-STS policy')).toBeInTheDocument();
    const errors = within(result).getByRole('region', { name: 'Errors' });
    expect(errors).toHaveTextContent('Mode must be enforce, testing, or none');
    expect(errors).toHaveTextContent('mode: enforce');
    expect(errors).toHaveTextContent('RFC 8461 §3.2');
    expect(errors).toHaveTextContent('max_age field is required');
    const [, sent] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(sent.body))).toEqual({ kind: 'policy', text: policy });
  });

  it('checks a TXT record when that is chosen', async () => {
    const record = 'v=STSv1; id=20240101';
    const fetchMock = succeedWith({ kind: 'record', ...validateMtaStsRecord(record) });
    const user = setup(fetchMock);
    await user.click(screen.getByRole('radio', { name: 'TXT record' }));
    await user.click(screen.getByLabelText(/^MTA-STS TXT record/));
    await user.paste(record);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Valid MTA-STS record')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Record fields' })).toHaveTextContent('20240101');
    const [, sent] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(sent.body))).toEqual({ kind: 'record', text: record });
  });
});
