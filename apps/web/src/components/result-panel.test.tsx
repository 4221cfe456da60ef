import { couldNotCheckAdvice } from '@rfckit/standards';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '../lib/api.ts';
import { renderWithProviders } from '../test/render.tsx';
import { requestPanelState, type RequestLike } from './request-form.ts';
import { ResultPanel } from './result-panel.tsx';

describe('ResultPanel', () => {
  it('offers no retry for a server that speaks another protocol, and says so', async () => {
    const request: RequestLike<unknown, { host: string }> = {
      isPending: false,
      isError: true,
      error: new ApiError('example.com:443 does not speak TLS', 422, 'PROTOCOL_ERROR'),
      data: undefined,
      variables: { host: 'example.com' },
      mutate: vi.fn(),
    };
    renderWithProviders(
      <ResultPanel
        state={requestPanelState(request, {
          pending: '',
          empty: '',
          success: () => ({ title: '', children: null }),
        })}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Trying again will not change this');
    expect(alert).not.toHaveTextContent('This says nothing about your configuration');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('shows the empty prompt', () => {
    renderWithProviders(<ResultPanel state={{ status: 'empty', prompt: 'Paste a record' }} label="Result" />);
    const region = screen.getByRole('region', { name: 'Result' });
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('Paste a record');
  });

  it('shows a success result with its title and content', () => {
    renderWithProviders(
      <ResultPanel
        state={{ status: 'success', title: 'Valid DNSKEY record', children: <p>Key tag 20078</p> }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Valid DNSKEY record' })).toBeInTheDocument();
    expect(screen.getByText('Key tag 20078')).toBeInTheDocument();
  });

  it('shows an error titled Error with the message', () => {
    renderWithProviders(
      <ResultPanel state={{ status: 'error', message: 'Network error. Please try again.' }} />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('Network error. Please try again.');
  });

  it('shows "we could not check" in neutral words, with what was tried, a retry and no fix', async () => {
    const retry = vi.fn();
    renderWithProviders(
      <ResultPanel
        state={{
          status: 'unchecked',
          title: 'Our DNS resolver did not answer',
          message: 'Our DNS resolver did not answer, so we could not look up _dmarc.example.com',
          advice: couldNotCheckAdvice.RESOLVER_UNAVAILABLE,
          retry: true,
          tried: [{ target: '_dmarc.example.com', outcome: 'No answer from our DNS resolver' }],
          onRetry: retry,
        }}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('We could not check: Our DNS resolver did not answer');
    expect(alert).toHaveTextContent('This says nothing about your configuration');
    expect(alert).not.toHaveTextContent(/fix/i);
    expect(screen.getByRole('list', { name: 'What we tried' })).toHaveTextContent(
      '_dmarc.example.com: No answer from our DNS resolver',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});

describe('requestPanelState', () => {
  const text = {
    pending: 'Checking',
    empty: 'Enter a domain',
    success: () => ({ title: 'Done', children: null }),
  };
  const failed = (
    error: Error,
    mutate?: (body: { domain: string }) => void,
  ): RequestLike<never, { domain: string }> => ({
    isPending: false,
    isError: true,
    error,
    data: undefined,
    variables: { domain: 'example.com' },
    mutate,
  });

  it('reads a resolver or network failure as a check we could not make, retrying the same request', () => {
    const mutate = vi.fn();
    const error = new ApiError(
      'Nothing answered on port 443 at example.com',
      502,
      'CONNECT_FAILED',
      undefined,
      [{ target: 'https://example.com/', outcome: 'Nothing answered on port 443 at example.com' }],
    );
    const state = requestPanelState(failed(error, mutate), text);
    expect(state).toMatchObject({
      status: 'unchecked',
      title: 'Nothing answered',
      message: 'Nothing answered on port 443 at example.com',
      tried: [{ target: 'https://example.com/' }],
    });
    if (state.status === 'unchecked') state.onRetry?.();
    expect(mutate).toHaveBeenCalledWith({ domain: 'example.com' });
  });

  it('keeps the tool’s own words when our server gave no answer', () => {
    const error = new ApiError('Network error. Please try again.', 0, 'NETWORK_ERROR');
    const state = requestPanelState(failed(error), { ...text, errorMessage: (e) => `Error: ${e.message}` });
    expect(state).toMatchObject({
      status: 'unchecked',
      title: 'Our server could not be reached',
      message: 'Error: Network error. Please try again.',
      onRetry: undefined,
    });
  });

  it('leaves every other failure an error', () => {
    const error = new ApiError('Domain is required', 400, 'VALIDATION_ERROR');
    expect(requestPanelState(failed(error), text)).toEqual({
      status: 'error',
      message: 'Domain is required',
    });
  });
});
