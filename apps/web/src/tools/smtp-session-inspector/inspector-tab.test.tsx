import {
  smtpMxDiagnostics,
  smtpSessionDeviations,
  type SmtpInspectResult,
  type SmtpSessionView,
  type SmtpStepView,
} from '@rfckit/standards';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { json, streamingFetch, succeedWith } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { InspectorTab } from './inspector-tab.tsx';

const step = (kind: SmtpStepView['kind'], fields: Partial<SmtpStepView>): SmtpStepView => ({
  kind,
  sent: null,
  reply: [],
  code: null,
  startedMs: 0,
  durationMs: 4,
  ok: true,
  error: null,
  ...fields,
});

const steps: SmtpStepView[] = [
  step('connect', {}),
  step('banner', { code: 220, reply: ['220 mx1.example.com ESMTP'], startedMs: 5 }),
  step('ehlo', {
    sent: 'EHLO rfckit.example',
    code: 250,
    reply: ['250-mx1.example.com', '250-PIPELINING', '250 STARTTLS'],
    startedMs: 10,
  }),
  step('starttls', {
    sent: 'STARTTLS',
    code: 454,
    ok: false,
    reply: ['454 4.7.0 TLS not available'],
    error: 'the reply to STARTTLS was 454, not 220',
    startedMs: 15,
  }),
  step('quit', { sent: 'QUIT', code: 221, reply: ['221 Bye'], startedMs: 20 }),
];

const session: SmtpSessionView = {
  host: 'mx1.example.com',
  port: 25,
  address: '192.0.2.1',
  mode: 'starttls',
  steps,
  extensions: ['PIPELINING', 'STARTTLS'],
  extensionsAfterTls: null,
  starttlsAdvertised: true,
  tls: null,
  completed: false,
};
// what the server answers: the transcript and its deviations, computed as the server does
const result: SmtpInspectResult = {
  ...session,
  domain: 'example.com',
  limits: { connectMs: 10_000, bannerMs: 30_000, replyMs: 30_000, handshakeMs: 15_000, sessionMs: 90_000 },
  deviations: smtpSessionDeviations(session),
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('InspectorTab', () => {
  it('lists the MX hosts by preference and starts a session with one', async () => {
    const lookup = {
      domain: 'example.com',
      nullMx: false,
      dnsError: null,
      omittedHosts: 0,
      hosts: [
        {
          preference: 10,
          host: 'mx1.example.com',
          implicit: false,
          addresses: ['192.0.2.1'],
          cnameTarget: null,
          problem: null,
        },
        {
          preference: 20,
          host: 'mail.example.com',
          implicit: false,
          addresses: ['192.0.2.2'],
          cnameTarget: 'real.example.com',
          problem: null,
        },
      ],
    };
    const refusal = 'mx1.example.com resolves to 10.0.0.1, a private address';
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockImplementation(async (url) =>
        String(url).endsWith('/mx')
          ? json({ success: true, data: { ...lookup, diagnostics: smtpMxDiagnostics(lookup) } })
          : json({ success: false, error: refusal, code: 'OUTBOUND_BLOCKED' }, 422),
      );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<InspectorTab />);
    await user.type(screen.getByLabelText(/^Domain/), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Look up MX' }));
    const list = await screen.findByRole('list', { name: 'MX hosts by preference' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('mx1.example.com'), expect.stringContaining('mail.example.com')]);
    expect(screen.getByRole('region', { name: 'MX findings' })).toHaveTextContent(
      'is an alias (CNAME) of real.example.com',
    );
    // the host's button starts its session on the chosen port
    await user.selectOptions(screen.getByLabelText('Port'), '587');
    await user.click(screen.getByRole('button', { name: 'Inspect mx1.example.com' }));
    expect(screen.getByLabelText(/^Hostname/)).toHaveValue('mx1.example.com');
    const session = screen.getByRole('region', { name: 'SMTP session result' });
    expect(await within(session).findByText(new RegExp(refusal))).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body))).toEqual({
      host: 'mx1.example.com',
      port: 587,
      domain: 'example.com',
    });

    // a domain the form refuses takes the last lookup's hosts off the screen
    await user.clear(screen.getByLabelText(/^Domain/));
    await user.type(screen.getByLabelText(/^Domain/), 'bad domain!');
    await user.click(screen.getByRole('button', { name: 'Look up MX' }));
    expect(screen.queryByRole('list', { name: 'MX hosts by preference' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('names the field it asks for: Hostname is required', async () => {
    const fetchMock = succeedWith({});
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<InspectorTab />);
    await user.click(screen.getByRole('button', { name: 'Inspect session' }));
    expect(screen.getByLabelText(/^Hostname/)).toHaveAccessibleDescription(
      expect.stringContaining('Hostname is required'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows each step as it arrives, announces it, then the deviations', async () => {
    const stream = streamingFetch();
    vi.stubGlobal('fetch', stream.fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<InspectorTab />);
    await user.type(screen.getByLabelText(/^Hostname/), 'mx1.example.com');
    await user.click(screen.getByRole('button', { name: 'Inspect session' }));
    const [url, init] = stream.fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/v1\/smtp-session-inspector\/inspect$/);
    expect(JSON.parse(String(init?.body))).toEqual({ host: 'mx1.example.com', port: 25 });
    stream.send('progress', steps[0]);
    stream.send('progress', steps[1]);
    const live = await screen.findByRole('list', { name: 'Live SMTP transcript' });
    await waitFor(() => expect(within(live).getAllByRole('listitem')).toHaveLength(2));
    expect(live).toHaveTextContent('S: 220 mx1.example.com ESMTP');
    expect(screen.getByRole('status')).toHaveTextContent('Greeting answered 220 in 4 ms');
    for (const next of steps.slice(2)) stream.send('progress', next);
    stream.send('result', { success: true, data: result });
    stream.end();
    const transcript = await screen.findByRole('list', {
      name: 'SMTP transcript of mx1.example.com port 25',
    });
    expect(transcript).toHaveTextContent('C: STARTTLS');
    expect(transcript).toHaveTextContent('S: 454 4.7.0 TLS not available');
    expect(screen.getByRole('region', { name: 'Deviations' })).toHaveTextContent(
      'advertises STARTTLS but answered it with 454',
    );
  });

  it('runs a session from ?host= and ?port= in the address', async () => {
    const stream = streamingFetch();
    vi.stubGlobal('fetch', stream.fetchMock);
    renderWithProviders(<InspectorTab />, {
      route: '/tools/smtp-session-inspector?tab=inspector&host=mx1.example.com&port=465',
    });
    await waitFor(() => expect(stream.fetchMock).toHaveBeenCalled());
    expect(JSON.parse(String(stream.fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      host: 'mx1.example.com',
      port: 465,
    });
    expect(screen.getByLabelText(/^Port/)).toHaveValue('465');
  });
});
