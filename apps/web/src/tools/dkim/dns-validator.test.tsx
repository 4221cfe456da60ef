import { dkimOperations } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { json } from '../../test/api.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ValidatorTab } from './validator-tab.tsx';

const key = 'MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';
const record = `v=DKIM1; k=rsa; p=${key}`;

// An answer shaped as POST /v1/dkim/dns gives it for a CNAME-delegated selector with a revoked key.
const revokedResult = {
  dnsName: 's1._domainkey.example.com',
  ttl: 600,
  record: 'v=DKIM1; k=rsa; p=',
  strings: ['v=DKIM1; k=rsa; p='],
  txtRecords: ['v=DKIM1; k=rsa; p='],
  canonicalName: 's1.domainkey.u123.wl.sendgrid.test',
  cnames: [{ name: 's1._domainkey.example.com', target: 's1.domainkey.u123.wl.sendgrid.test', ttl: 600 }],
  lookup: 'ok',
  validation: {
    valid: false,
    errors: ['The key is revoked (p= is empty): signatures with this selector fail'],
    warnings: [],
    diagnostics: [
      {
        severity: 'error',
        code: 'DKIM_KEY_REVOKED',
        message: 'The key is revoked (p= is empty): signatures with this selector fail',
        rfc: 'RFC 6376 §3.6.1',
      },
    ],
    parsed: {
      status: 'revoked',
      record: 'v=DKIM1; k=rsa; p=',
      strings: 1,
      ownerName: null,
      version: 'DKIM1',
      keyType: 'rsa',
      hashAlgorithms: null,
      serviceTypes: ['*'],
      flags: [],
      notes: null,
      keySize: null,
      keyEncoding: null,
      publicKeyBytes: 0,
    },
    tags: { v: 'DKIM1', k: 'rsa', p: '' },
  },
  status: 'revoked',
  valid: false,
  issues: [
    {
      severity: 'info',
      code: 'DKIM_DNS_CNAME',
      message: 's1._domainkey.example.com is delegated by CNAME to s1.domainkey.u123.wl.sendgrid.test',
      rfc: 'RFC 6376 §3.6.2.1',
    },
    {
      severity: 'error',
      code: 'DKIM_KEY_REVOKED',
      message: 'The key is revoked (p= is empty): signatures with this selector fail',
      rfc: 'RFC 6376 §3.6.1',
    },
  ],
};

const validResult = {
  ...revokedResult,
  dnsName: 'google._domainkey.example.com',
  canonicalName: 'google._domainkey.example.com',
  cnames: [],
  record,
  strings: [record],
  txtRecords: [record],
  ttl: 3600,
  validation: { ...revokedResult.validation, valid: true, errors: [], diagnostics: [] },
  status: 'valid',
  valid: true,
  issues: [],
};

const discovery = {
  domain: 'example.com',
  probed: 34,
  found: [
    {
      selector: 'google',
      dnsName: 'google._domainkey.example.com',
      source: 'Google Workspace',
      status: 'valid',
      keyType: 'rsa',
      keySize: 2048,
      delegatedTo: null,
    },
  ],
  failed: [],
  unchecked: [],
};

describe('DKIM validator (DNS mode)', () => {
  let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>().mockImplementation(async (input, init) => {
      const body = JSON.parse(String(init?.body)) as { selector?: string };
      if (String(input) === `/v1${dkimOperations.selectors.path}`)
        return json({ success: true, data: discovery });
      return json({ success: true, data: body.selector === 'google' ? validResult : revokedResult });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  async function dnsMode() {
    const user = userEvent.setup();
    renderWithProviders(<ValidatorTab />);
    await user.click(screen.getByRole('radio', { name: 'Look up in DNS' }));
    return user;
  }

  it("requires domain and selector with the spec's message", async () => {
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Domain and selector are required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the lookup, its delegation and the findings of the record', async () => {
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    await user.type(screen.getByRole('textbox', { name: /^Selector/ }), 's1');
    await user.click(screen.getByRole('button', { name: 'Validate' }));

    expect(await screen.findByRole('heading', { name: 'Revoked DKIM key' })).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/v1${dkimOperations.dns.path}`);
    expect(JSON.parse(String(init?.body))).toEqual({ domain: 'example.com', selector: 's1' });
    const lookup = screen.getByRole('table', { name: 'DNS lookup' });
    expect(lookup).toHaveTextContent('s1._domainkey.example.com → s1.domainkey.u123.wl.sendgrid.test');
    expect(lookup).toHaveTextContent('600 seconds');
    expect(
      within(screen.getByRole('list', { name: 'DNS findings' })).getByText(/delegated by CNAME/),
    ).toBeVisible();
    const finding = within(screen.getByRole('list', { name: 'Findings' }))
      .getByText(/revoked/)
      .closest('li');
    expect(finding).toHaveAttribute('data-code', 'DKIM_KEY_REVOKED');
  });

  it('shows a selector that does not exist as not found, with no TTL', async () => {
    fetchMock.mockImplementation(async () =>
      json({
        success: true,
        data: {
          ...revokedResult,
          dnsName: 'missing._domainkey.example.com',
          canonicalName: 'missing._domainkey.example.com',
          cnames: [],
          ttl: null,
          lookup: 'nxdomain',
          record: null,
          strings: [],
          txtRecords: [],
          validation: null,
          status: 'not-found',
          issues: [
            {
              severity: 'error',
              code: 'DKIM_DNS_NXDOMAIN',
              message:
                'missing._domainkey.example.com does not exist (NXDOMAIN): no key is published under this selector',
              rfc: 'RFC 6376 §6.1.2',
              fix: 'Check the selector against the s= tag of a signed message, and publish the key record at this name.',
            },
          ],
        },
      }),
    );
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    await user.type(screen.getByRole('textbox', { name: /^Selector/ }), 'missing');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('heading', { name: 'No DKIM key found' })).toBeInTheDocument();
    const lookup = screen.getByRole('table', { name: 'DNS lookup' });
    expect(lookup).toHaveTextContent('Not found: the name does not exist (NXDOMAIN)');
    expect(lookup).not.toHaveTextContent('TTL');
    expect(lookup).not.toHaveTextContent('seconds');
  });

  it('lists the TXT records when several key records leave none to validate', async () => {
    const other = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtwo';
    fetchMock.mockImplementation(async () =>
      json({
        success: true,
        data: {
          ...revokedResult,
          cnames: [],
          canonicalName: 's1._domainkey.example.com',
          record: null,
          strings: [],
          txtRecords: [record, other],
          validation: null,
          status: 'invalid',
          issues: [
            {
              severity: 'error',
              code: 'DKIM_DNS_MULTIPLE_RECORDS',
              message: 's1._domainkey.example.com has 2 key records',
              rfc: 'RFC 6376 §3.6.2.2',
            },
          ],
        },
      }),
    );
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    await user.type(screen.getByLabelText('Selector'), 's1');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('heading', { name: 'Invalid DKIM key record' })).toBeInTheDocument();
    expect(screen.getByLabelText('TXT record 1')).toHaveTextContent(record);
    expect(screen.getByLabelText('TXT record 2')).toHaveTextContent(other);
    expect(screen.getByText('s1._domainkey.example.com has 2 key records')).toBeInTheDocument();
  });

  it("prefixes a server error with 'DNS validation failed: '", async () => {
    fetchMock.mockImplementation(async () =>
      json({ success: false, error: 'Rate limit exceeded', code: 'RATE_LIMITED' }, 429),
    );
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    await user.type(screen.getByRole('textbox', { name: /^Selector/ }), 's1');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('DNS validation failed: Rate limit exceeded')).toBeInTheDocument();
  });

  it('shows the lookup’s own message on a selector that is not one, without asking the server', async () => {
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    const selector = screen.getByRole('textbox', { name: /^Selector/ });
    await user.type(selector, 'a b');
    await user.tab();
    expect(screen.getByRole('alert')).toHaveTextContent(
      "'a b' is not a valid selector: use letters, digits, hyphens and dots",
    );
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('finds selectors and validates the one chosen', async () => {
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Find selectors' }));

    const found = await screen.findByRole('region', { name: 'Selectors found' });
    expect(found).toHaveTextContent('1 of 34 common selectors');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ domain: 'example.com' });
    await user.click(within(found).getByRole('button', { name: 'google (rsa 2048 bits)' }));

    expect(await screen.findByRole('heading', { name: 'Valid DKIM key published' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Selector/ })).toHaveValue('google');
    expect(JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body))).toEqual({
      domain: 'example.com',
      selector: 'google',
    });
    expect(screen.getByLabelText('Published record')).toHaveTextContent(record);
  });

  it('says that we could not check, in neutral words, when our resolver answered for no selector', async () => {
    const tried = ['default', 'google'].map((selector) => ({
      target: `${selector}._domainkey.example.com`,
      outcome: 'No answer from our DNS resolver',
    }));
    fetchMock.mockImplementation(async () =>
      json(
        {
          success: false,
          error: 'Our DNS resolver did not answer, so we could not look up default._domainkey.example.com',
          code: 'RESOLVER_UNAVAILABLE',
          details: { tried },
        },
        503,
      ),
    );
    const user = await dnsMode();
    await user.type(screen.getByLabelText('Domain'), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Find selectors' }));

    const notice = await screen.findByRole('alert');
    expect(notice).toHaveAttribute('data-could-not-check');
    expect(notice).toHaveTextContent('We could not check: Our DNS resolver did not answer');
    expect(notice).not.toHaveTextContent(/Selector discovery failed|fix/i);
    expect(screen.getByRole('list', { name: 'What we tried' })).toHaveTextContent(
      'google._domainkey.example.com: No answer from our DNS resolver',
    );
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body))).toEqual({ domain: 'example.com' });
  });

  it('asks for a domain before finding selectors', async () => {
    const user = await dnsMode();
    await user.click(screen.getByRole('button', { name: 'Find selectors' }));
    expect(await screen.findByText('Domain is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
