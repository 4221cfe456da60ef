import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { ResultPanel } from './result-panel.tsx';

describe('ResultPanel', () => {
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
});
