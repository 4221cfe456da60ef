import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import RegisterPage from './register-page.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function submit(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('RegisterPage', { timeout: SLOW_UI_MS }, () => {
  it('checks all fields, then length, then confirmation, before calling the server', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, { route: '/register' });

    await submit(user);
    expect(screen.getByText('All fields are required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email', { exact: false }), 'ada@example.org');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'short');
    await submit(user);
    // still required: the confirmation is empty, and "required" comes first
    expect(screen.getByText('All fields are required')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Confirm password/), 'other');
    await submit(user);
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();

    await user.clear(screen.getByLabelText(/^Password/, { selector: 'input' }));
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'Longer-pass1');
    await submit(user);
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();

    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('registers and shows the success message', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        jsonResponse(
          { success: true, data: { message: 'ok', user: { id: '1', email: 'ada@example.org' } } },
          201,
        ),
      );
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await user.type(screen.getByLabelText('Email', { exact: false }), 'ada@example.org');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'Longer-pass1');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Longer-pass1');
    expect(screen.getByText('Password strength: Strong (100%)')).toBeInTheDocument();
    await submit(user);

    expect(
      await screen.findByText('Registration successful! Please check your email to verify your account.'),
    ).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/v1/auth/register');
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'ada@example.org',
      password: 'Longer-pass1',
      confirmPassword: 'Longer-pass1',
    });
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
  });

  it("shows the server's message when registration fails", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(
        { success: false, error: 'An account with this email already exists', code: 'EMAIL_TAKEN' },
        409,
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await user.type(screen.getByLabelText('Email', { exact: false }), 'ada@example.org');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'Longer-pass1');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Longer-pass1');
    await submit(user);
    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();
  });
});
