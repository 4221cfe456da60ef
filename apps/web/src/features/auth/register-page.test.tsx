import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadPasswordPolicy, loadPasswordStrength } from '@rfckit/standards';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import RegisterPage from './register-page.tsx';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Pastes rather than types: one change, not one zxcvbn estimate per keystroke. */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, value: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(value);
}

const passwordInput = () => screen.getByLabelText(/^Password/, { selector: 'input' });
const confirmInput = () => screen.getByLabelText(/^Confirm password/);

async function submit(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('RegisterPage', () => {
  beforeAll(() => Promise.all([loadPasswordPolicy(), loadPasswordStrength()]), 30_000);

  it('checks all fields, then length, then confirmation, before calling the server', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, { route: '/register' });

    await submit(user);
    expect(await screen.findByText('All fields are required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email', { exact: false }), 'ada@example.org');
    await fill(user, passwordInput(), 'short');
    await submit(user);
    // still required: the confirmation is empty, and "required" comes first
    expect(await screen.findByText('All fields are required')).toBeInTheDocument();

    await fill(user, confirmInput(), 'other');
    await submit(user);
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeInTheDocument();

    await fill(user, passwordInput(), 'Longer-pass1');
    await submit(user);
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();

    // then the shared password policy: a common password, or the email address
    for (const weak of ['password', 'ada@example.org']) {
      await fill(user, passwordInput(), weak);
      await fill(user, confirmInput(), weak);
      await submit(user);
      expect(
        await screen.findByText(
          weak === 'password'
            ? 'This password is too common and easy to guess: please choose another one'
            : 'Password must not contain your email address',
        ),
      ).toBeInTheDocument();
    }

    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('registers and shows the success message', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        jsonResponse({ success: true, data: { message: 'ok', user: { email: 'ada@example.org' } } }, 201),
      );
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await user.type(screen.getByLabelText('Email', { exact: false }), 'ada@example.org');
    await fill(user, passwordInput(), 'kJ8#qL2!vZ9@xR4$');
    await fill(user, confirmInput(), 'kJ8#qL2!vZ9@xR4$');
    expect(screen.getByText('Password strength: Strong (100%)')).toBeInTheDocument();
    await submit(user);

    expect(
      await screen.findByText('Registration successful! Please check your email to verify your account.'),
    ).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/v1/auth/register');
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'ada@example.org',
      password: 'kJ8#qL2!vZ9@xR4$',
      confirmPassword: 'kJ8#qL2!vZ9@xR4$',
    });
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
  });

  it("shows the server's message when registration fails", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' }, 429),
    );
    const user = userEvent.setup();
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await user.type(screen.getByLabelText('Email', { exact: false }), 'ada@example.org');
    await fill(user, passwordInput(), 'Longer-pass1');
    await fill(user, confirmInput(), 'Longer-pass1');
    await submit(user);
    expect(await screen.findByText('Rate limit exceeded')).toBeInTheDocument();
  });
});
