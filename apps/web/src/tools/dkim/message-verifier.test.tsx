import { dkimKeyNotCheckedReason, dkimOperations } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { json } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const message =
  'DKIM-Signature: v=1; a=ed25519-sha256; d=example.com; s=k1; h=from; bh=x; b=y\r\nFrom: a@example.com\r\n\r\nHi.\r\n';

const key = {
  dnsName: 'k1._domainkey.example.com',
  record: 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=',
  lookup: 'ok',
  type: 'ed25519',
  size: 256,
  status: 'valid',
  diagnostics: [],
};

// An answer shaped as POST /v1/dkim/verify-message gives it: one signature passes, one has a tampered body.
const answer = {
  signatures: [
    {
      d: 'example.com',
      s: 'k1',
      a: 'ed25519-sha256',
      c: 'relaxed/relaxed',
      i: null,
      signedHeaders: ['from', 'to', 'subject'],
      bodyHash: { expected: 'abc=', computed: 'abc=', match: true },
      key,
      result: 'pass',
      reason: null,
      rfc: null,
      signedAt: '2018-06-10T13:38:29.000Z',
      expiresAt: null,
      expired: false,
      testing: false,
      library: { result: 'pass', comment: null },
    },
    {
      d: 'example.com',
      s: 'old',
      a: 'rsa-sha1',
      c: 'simple/simple',
      i: null,
      signedHeaders: ['from'],
      bodyHash: { expected: 'abc=', computed: 'xyz=', match: false },
      key: { ...key, dnsName: 'old._domainkey.example.com', type: 'rsa', size: 1024 },
      result: 'fail',
      reason: 'body hash did not verify',
      rfc: 'RFC 6376 §6.1.3',
      signedAt: null,
      expiresAt: '2020-01-01T00:00:00.000Z',
      expired: true,
      testing: false,
      library: { result: 'fail', comment: 'body hash did not verify' },
    },
  ],
  summary: { result: 'pass', total: 2, passed: 1, message: '1 of 2 signatures verified' },
};

describe('DKIM validator (message mode)', () => {
  let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>().mockImplementation(async () => json({ success: true, data: answer }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  async function messageMode() {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.click(screen.getByRole('radio', { name: 'Verify a message' }));
    return user;
  }

  it('requires a message', async () => {
    const user = await messageMode();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Message is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows each signature's fields, result and reason", async () => {
    const user = await messageMode();
    await user.click(screen.getByLabelText('Message'));
    await user.paste(message);
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('heading', { name: 'DKIM signature verified' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${dkimOperations.verifyMessage.path}`);
    // a text area keeps line breaks as LF; the verifier reads LF lines as CRLF ones
    expect(JSON.parse(String(init?.body))).toEqual({ message: message.replace(/\r\n/g, '\n') });
    expect(screen.getByText('1 of 2 signatures verified')).toBeInTheDocument();

    const first = screen.getByRole('region', { name: 'Signature 1: k1._domainkey.example.com' });
    expect(within(first).getByText('pass')).toBeInTheDocument();
    const details = within(first).getByRole('table');
    expect(details).toHaveTextContent('ed25519-sha256');
    expect(details).toHaveTextContent('from, to, subject');
    expect(details).toHaveTextContent('matches bh=');
    expect(details).toHaveTextContent('ed25519, 256 bits, valid');

    const second = screen.getByRole('region', { name: 'Signature 2: old._domainkey.example.com' });
    expect(within(second).getByText('fail')).toBeInTheDocument();
    expect(within(second).getByText('body hash did not verify (RFC 6376 §6.1.3)')).toBeInTheDocument();
    expect(within(second).getByRole('table')).toHaveTextContent('does not match bh= (computed xyz=)');
    expect(within(second).getByRole('table')).toHaveTextContent('2020-01-01T00:00:00.000Z (expired)');
  });

  it('shows i=, a testing key, and a body hash never computed as not checked', async () => {
    const [first] = answer.signatures;
    fetchMock.mockImplementation(async () =>
      json({
        success: true,
        data: {
          signatures: [
            { ...first, testing: true },
            {
              ...first,
              s: 'sub',
              i: 'alice@elsewhere.example',
              // refused on i= before the body was hashed (RFC 6376 §6.1.1)
              bodyHash: { expected: 'abc=', computed: null, match: false },
              key: null,
              result: 'permerror',
              reason: 'domain mismatch: the i= domain is neither d= nor a subdomain of it',
              rfc: 'RFC 6376 §6.1.1',
            },
          ],
          summary: { result: 'pass', total: 2, passed: 1, message: '1 of 2 signatures verified' },
        },
      }),
    );
    const user = await messageMode();
    await user.click(screen.getByLabelText('Message'));
    await user.paste(message);
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const testing = await screen.findByRole('region', { name: 'Signature 1: k1._domainkey.example.com' });
    expect(within(testing).getByText(/The key has t=y: example.com is testing DKIM/)).toBeInTheDocument();
    expect(within(testing).getByRole('table')).toHaveTextContent('@example.com (default)');
    const refused = screen.getByRole('region', { name: 'Signature 2: sub._domainkey.example.com' });
    const details = within(refused).getByRole('table');
    expect(details).toHaveTextContent('alice@elsewhere.example');
    expect(details).toHaveTextContent('Body hashnot checked');
    expect(details).not.toHaveTextContent('does not match bh=');
    expect(details).toHaveTextContent('not looked up');
  });

  it('shows a signature whose key our resolver did not answer for as not checked, neutral, with no fix', async () => {
    const [passed] = answer.signatures;
    fetchMock.mockImplementation(async () =>
      json({
        success: true,
        data: {
          ...answer,
          signatures: [
            passed,
            {
              ...passed,
              s: 'k2',
              key: {
                ...key,
                dnsName: 'k2._domainkey.example.com',
                record: null,
                lookup: 'timeout',
                type: null,
                size: null,
                status: null,
              },
              result: 'temperror',
              reason: dkimKeyNotCheckedReason,
              rfc: 'RFC 6376 §6.1.2',
              library: { result: 'temperror', comment: 'ETIMEOUT' },
            },
          ],
        },
      }),
    );
    const user = await messageMode();
    await user.click(screen.getByLabelText('Message'));
    await user.paste(message);
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const unchecked = await screen.findByRole('region', { name: 'Signature 2: k2._domainkey.example.com' });
    const badge = within(unchecked).getByText('not checked');
    expect(badge.closest('[data-could-not-check]')).not.toBeNull();
    expect(within(unchecked).queryByText('temperror')).toBeNull();
    expect(unchecked).toHaveTextContent('we could not check this signature: our DNS resolver did not answer');
    expect(unchecked).not.toHaveTextContent(/fix/i);
  });

  it('says so when the message has no signature', async () => {
    fetchMock.mockImplementation(async () =>
      json({
        success: true,
        data: {
          signatures: [],
          summary: {
            result: 'none',
            total: 0,
            passed: 0,
            message: 'The message has no DKIM-Signature header field',
          },
        },
      }),
    );
    const user = await messageMode();
    await user.click(screen.getByLabelText('Message'));
    await user.paste('From: a@example.com\r\n\r\nHi.\r\n');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'No DKIM signature' })).toBeInTheDocument();
    expect(screen.getByText('The message has no DKIM-Signature header field')).toBeInTheDocument();
  });

  it("prefixes a server error with 'Verification failed: '", async () => {
    fetchMock.mockImplementation(async () =>
      json({ success: false, error: 'Message is larger than 5 MiB', code: 'VALIDATION_ERROR' }, 400),
    );
    const user = await messageMode();
    await user.click(screen.getByLabelText('Message'));
    await user.paste(message);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Verification failed: Message is larger than 5 MiB')).toBeInTheDocument();
  });
});
