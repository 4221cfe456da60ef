import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

// typing, rendering and the work behind them take seconds in jsdom on a busy machine: not the 5 s default
const SLOW_UI_MS = 30_000;

function respondWith(body: unknown, status = 200) {
  return vi
    .fn<typeof fetch>()
    .mockImplementation(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
}

const headers = 'ARC-Seal: i=1; a=rsa-sha256; cv=none; d=example.org; s=arc; b=AAAA\nFrom: a@example.com';

function set(instance: number, overrides: Record<string, unknown> = {}) {
  return {
    instance,
    domain: 'lists.example.org',
    selector: 'arc',
    algorithm: 'rsa-sha256',
    cv: instance === 1 ? 'none' : 'pass',
    withinDomain: false,
    seal: { result: 'pass', reason: null, keyBits: 2048, dnsName: 'arc._domainkey.lists.example.org' },
    messageSignature: {
      result: 'pass',
      reason: null,
      domain: 'lists.example.org',
      selector: 'arc',
      algorithm: 'rsa-sha256',
      canonicalization: 'relaxed/relaxed',
      signedHeaders: ['from', 'to', 'subject', 'date'],
      bodyHashMatches: true,
      keyBits: 2048,
      dnsName: 'arc._domainkey.lists.example.org',
    },
    authenticationResults: {
      authservId: 'lists.example.org',
      results: ['spf=pass smtp.mailfrom=example.com'],
    },
    timestamp: 1732352400,
    ...overrides,
  };
}

// Answers shaped as POST /v1/arc/validate gives them (the ARC contract).
const passing = {
  valid: true,
  errors: [],
  warnings: [],
  diagnostics: [],
  domain: 'example.org',
  chain: { result: 'pass', reason: null, instances: 2, failedInstance: null, oldestPass: 0 },
  sets: [set(1), set(2, { domain: 'mx.example.org', withinDomain: true })],
};

const bodyChanged = 'Instance 1: the body hash of the ARC-Message-Signature does not match the body';
const failing = {
  valid: false,
  errors: [bodyChanged],
  warnings: [],
  diagnostics: [
    {
      severity: 'error',
      code: 'ARC_AMS_BODY_HASH',
      message: bodyChanged,
      requirement: 'MUST',
      rfc: 'RFC 8617 §5.2',
    },
  ],
  domain: 'example.org',
  chain: { result: 'fail', reason: bodyChanged, instances: 1, failedInstance: 1, oldestPass: null },
  sets: [
    set(1, {
      messageSignature: {
        ...set(1).messageSignature,
        result: 'fail',
        reason: 'body hash did not verify',
        bodyHashMatches: false,
      },
    }),
  ],
};

describe('ARC validator', { timeout: SLOW_UI_MS }, () => {
  let fetchMock: ReturnType<typeof respondWith>;

  beforeEach(() => {
    fetchMock = respondWith({ success: true, data: passing });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("requires domain and headers with the spec's message", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByRole('textbox', { name: /^Domain/ }), 'example.org');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Domain and ARC headers are required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts domain and record and shows the verdict and one row per instance', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByRole('textbox', { name: /^Domain/ }), ' example.org ');
    await user.click(screen.getByRole('textbox', { name: /^ARC headers or message/ }));
    await user.paste(headers);
    await user.keyboard('{Control>}{Enter}{/Control}');

    expect(await screen.findByRole('heading', { name: 'ARC chain passes' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/v1/arc/validate');
    expect(JSON.parse(String(init?.body))).toEqual({ record: headers, domain: 'example.org' });

    expect(screen.getByRole('table', { name: 'Chain verdict' })).toHaveTextContent(
      'every AMS verifies: unchanged since instance 1',
    );
    const rows = within(screen.getByRole('region', { name: 'ARC sets' })).getAllByRole('row');
    // header row + two instances
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('1lists.example.orgarcnone');
    expect(rows[1]).toHaveTextContent('matches');
    expect(rows[1]).toHaveTextContent('2048');
    expect(rows[2]).toHaveTextContent('mx.example.org');
    expect(rows[2]).toHaveTextContent(/yes$/);
    expect(screen.getByRole('region', { name: 'Recorded authentication results' })).toHaveTextContent(
      'i=1 by lists.example.org: spf=pass smtp.mailfrom=example.com',
    );
  });

  it('shows a failed chain with the reason, the failing check and the finding', async () => {
    fetchMock = respondWith({ success: true, data: failing });
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByRole('textbox', { name: /^Domain/ }), 'example.org');
    await user.type(screen.getByRole('textbox', { name: /^ARC headers or message/ }), 'ARC-Seal: i=1');
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'ARC chain fails' })).toBeInTheDocument();
    const verdict = screen.getByRole('table', { name: 'Chain verdict' });
    expect(verdict).toHaveTextContent(bodyChanged);
    expect(verdict).toHaveTextContent('Broken atinstance 1');
    const row = within(screen.getByRole('region', { name: 'ARC sets' })).getAllByRole('row')[1]!;
    expect(row.querySelector('[data-result="fail"]')).not.toBeNull();
    expect(row).toHaveTextContent('body hash did not verify');
    expect(row).toHaveTextContent('does not match');
    const errors = screen.getByRole('region', { name: 'Errors' });
    const finding = within(errors).getByText(bodyChanged).closest('li');
    expect(finding).toHaveAttribute('data-code', 'ARC_AMS_BODY_HASH');
    expect(finding).toHaveTextContent('RFC 8617 §5.2');
  });

  it("prefixes a server error with 'Validation failed: '", async () => {
    vi.stubGlobal(
      'fetch',
      respondWith({ success: false, error: 'ARC headers are too large', code: 'VALIDATION_ERROR' }, 400),
    );
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.type(screen.getByRole('textbox', { name: /^Domain/ }), 'example.org');
    await user.type(screen.getByRole('textbox', { name: /^ARC headers or message/ }), 'ARC-Seal: i=1');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Validation failed: ARC headers are too large')).toBeInTheDocument();
  });
});
