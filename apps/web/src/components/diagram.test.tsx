import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { Diagram } from './diagram.tsx';

const { render, initialize } = vi.hoisted(() => ({
  render: vi.fn<(id: string, definition: string) => Promise<{ svg: string }>>(),
  initialize: vi.fn(),
}));
vi.mock('mermaid', () => ({ default: { initialize, render } }));

describe('Diagram', () => {
  afterEach(() => {
    render.mockReset();
    initialize.mockReset();
  });

  it('loads mermaid on mount and shows the drawing with its text alternative and caption', async () => {
    render.mockResolvedValue({ svg: '<svg data-testid="drawing"></svg>' });
    renderWithProviders(<Diagram definition="flowchart TD; a-->b" label="a leads to b" caption="A to B" />);
    expect(await screen.findByTestId('drawing')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'a leads to b' })).toContainElement(screen.getByTestId('drawing'));
    expect(screen.getByText('A to B').tagName).toBe('FIGCAPTION');
    expect(initialize).toHaveBeenCalledWith(
      expect.objectContaining({ securityLevel: 'strict', theme: 'default' }),
    );
    expect(render.mock.calls[0]?.[1]).toBe('flowchart TD; a-->b');
  });

  it('falls back to the text alternative when drawing fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render.mockRejectedValue(new Error('Parse error'));
    renderWithProviders(<Diagram definition="not a diagram" label="a leads to b" />);
    expect(await screen.findByText('The diagram could not be drawn')).toBeInTheDocument();
    expect(screen.getByText('a leads to b')).toBeInTheDocument();
  });
});
