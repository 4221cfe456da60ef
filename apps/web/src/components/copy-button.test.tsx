import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../test/render.tsx';
import { CopyButton } from './copy-button.tsx';

describe('CopyButton', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('copies the value and shows Copied! for 2 seconds', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderWithProviders(<CopyButton value="example.com. IN DS 1 13 2 AB" label="Copy DS" />);
    await user.click(screen.getByRole('button', { name: 'Copy DS' }));
    expect(await navigator.clipboard.readText()).toBe('example.com. IN DS 1 13 2 AB');
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(1900);
    });
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.getByRole('button', { name: 'Copy DS' })).toBeInTheDocument();
  });

  it('honours a custom timeout', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderWithProviders(<CopyButton value="x" timeout={1500} />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('only logs a failed copy', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    renderWithProviders(<CopyButton value="x" />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(error).toHaveBeenCalledWith('Copy to clipboard failed', expect.any(Error));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });
});
