import { dnssecChainSchema, type DnssecChain } from '@rfckit/standards';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import {
  anchorSource,
  bogusChain,
  dsChain,
  expiredChain,
  insecureChain,
  nxdomainChain,
  secureChain,
} from '../../test/dnssec-chains.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { ChainResultView } from './chain-result.tsx';

function show(chain: DnssecChain) {
  // a fixture the server could not send fails here, not on screen
  renderWithProviders(<ChainResultView chain={dnssecChainSchema.parse(chain)} />);
}

function zoneCard(name: string): HTMLElement {
  const card = screen.getByRole('heading', { level: 5, name }).closest<HTMLElement>('[data-zone]');
  if (card === null) throw new Error(`no card for ${name}`);
  return card;
}

function answerCard(name: string): HTMLElement {
  const card = screen.getByRole('heading', { level: 5, name }).closest<HTMLElement>('[data-answer]');
  if (card === null) throw new Error(`no answer card ${name}`);
  return card;
}

/** The arrows between the cards, as written (they are decoration: the cards say it to screen readers). */
function connectors(): string[] {
  return [...document.querySelectorAll('[data-connector]')].map((c) => c.textContent ?? '');
}

describe('DNSSEC chain result', () => {
  it('draws a secure chain zone by zone, root first: DS, keys, what signs what, expiry', () => {
    show(secureChain);
    const chain = screen.getByRole('region', { name: 'Chain of trust' });
    const zones = within(chain)
      .getAllByRole('heading', { level: 5 })
      .map((heading) => heading.textContent);
    expect(zones).toEqual(['. (root)', 'test', 'example.test', 'Answer: www.example.test A']);

    const root = zoneCard('. (root)');
    expect(within(root).getByRole('region', { name: 'Trust anchors' })).toHaveTextContent(
      /DS 20326matches a key.*configured trust anchor: points at key 20326/,
    );
    const domain = zoneCard('example.test');
    expect(within(domain).getByLabelText('Zone example.test: secure')).toBeInTheDocument();
    const keys = within(domain).getByRole('region', { name: 'DNSKEY records' });
    expect(keys.querySelector('[data-key-tag="40000"]')).toHaveTextContent(
      /KSKKey 40000flags 257, algorithm 13 ECDSAP256SHA256, 256 bits.*matched by DS 40000.*signs the DNSKEY set/,
    );
    expect(keys.querySelector('[data-key-tag="40001"]')).toHaveTextContent(/ZSK.*signs DS, NSEC/);
    expect(within(domain).getByRole('region', { name: 'Signatures over the DNSKEY set' })).toHaveTextContent(
      /RRSIG DNSKEY by key 40000valid.*expires in 12 days/,
    );
    expect(within(domain).getByRole('region', { name: 'Signatures over the DS set' })).toHaveTextContent(
      'signer test',
    );
    expect(
      within(domain).getByRole('button', { name: 'Copy key 40000 of example.test' }),
    ).toBeInTheDocument();

    const answer = answerCard('Answer: www.example.test A');
    expect(answer).toHaveTextContent('One record.');
    expect(answer).toHaveTextContent('www.example.test. 300 IN A 192.0.2.10');
    expect(answer).toHaveTextContent(/RRSIG A by key 40001valid.*expires in 3 days/);
    expect(screen.getByText(/First signature to lapse expires in 3 days/)).toBeInTheDocument();

    const warnings = screen.getByRole('region', { name: 'Warnings' });
    expect(warnings).toHaveTextContent('expires in 3 days');
    expect(warnings).toHaveTextContent('Fix: Re-sign the zone');
    const verdict = screen.getByTestId('chain-verdict');
    expect(within(verdict).getByLabelText('Verdict: secure')).toBeInTheDocument();
    expect(verdict).toHaveTextContent("Trust anchors: IANA's root KSKs (20326, 38696).");
    expect(verdict).not.toHaveTextContent(anchorSource);
    const checked = verdict.querySelector('time');
    expect(checked).toHaveAttribute('dateTime', '2025-06-01T12:00:00.000Z');
    expect(checked?.textContent).toMatch(/2025.*UTC$/);
    expect(checked?.textContent).not.toContain('T12:00');
    expect(connectors()).toEqual([
      '↓ . (root) vouches for test with 1 DS',
      '↓ test vouches for example.test with 1 DS',
      '↓ signed by example.test',
    ]);
  });

  it('shows where a bogus chain breaks, why, and the fix', () => {
    show(bogusChain);
    const verdict = screen.getByTestId('chain-verdict');
    expect(within(verdict).getByLabelText('Verdict: bogus')).toBeInTheDocument();
    expect(verdict).toHaveTextContent('At example.test: the DS digest matches no key');
    expect(verdict.querySelector('[data-failure="wrong-digest"]')).not.toBeNull();
    expect(verdict).toHaveTextContent('not its digest');
    expect(verdict).toHaveTextContent('Fix: Publish the DS made from the current KSK at your registrar');
    expect(verdict).toHaveTextContent('RFC 4035 §5.2');

    const domain = zoneCard('example.test');
    expect(domain).toHaveAttribute('data-status', 'bogus');
    expect(within(domain).getByRole('region', { name: 'DS records in the parent' })).toHaveTextContent(
      'DS 40000wrong digest',
    );
    expect(domain).toHaveTextContent('Fix: Publish the DS made from the current KSK.');
    expect(domain.querySelector('[data-key-tag="40000"]')).not.toHaveTextContent('matched by DS');
    expect(domain.querySelector('[data-key-tag="40000"]')).toHaveTextContent(
      'signs the DNSKEY set, but no DS at the parent vouches for it',
    );
    // the zone's own signatures are checked, so the admin sees only the DS is wrong
    expect(within(domain).getByRole('region', { name: 'Signatures over the DNSKEY set' })).toHaveTextContent(
      /RRSIG DNSKEY by key 40000valid/,
    );
    expect(domain.querySelector('[data-ds-status="wrong-digest"]')).toHaveTextContent(
      'Key 40000 has the SHA-256 digest B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
    );
    expect(connectors().at(-1)).toBe('↓ not validated');
    expect(screen.queryByText(/First signature to lapse/)).not.toBeInTheDocument();
    expect(answerCard('Answer: www.example.test A')).toHaveTextContent(
      'Not validated: the chain of trust breaks above, so no answer for this name can be trusted.',
    );
    expect(zoneCard('test')).toHaveAttribute('data-status', 'secure');
    expect(screen.queryByRole('region', { name: 'Warnings' })).not.toBeInTheDocument();
  });

  it('shows an insecure delegation with its NSEC3 opt-out proof', () => {
    show(insecureChain);
    const unsigned = zoneCard('unsigned.test');
    expect(within(unsigned).getByRole('region', { name: 'DS records in the parent' })).toHaveTextContent(
      'No DS records.',
    );
    const proof = within(unsigned).getByRole('region', { name: 'Proof of no DS' });
    expect(proof).toHaveTextContent(/NSEC3 proof that the delegation has no DS \(an unsigned zone\)proven/);
    expect(proof).toHaveTextContent('opt-out');
    expect(proof).toHaveTextContent('Closest encloser: test. NSEC3 iterations 0, salt none.');
    expect(within(unsigned).getByRole('region', { name: 'DNSKEY records' })).toHaveTextContent(
      'No DNSKEY records.',
    );
    expect(
      within(answerCard('Answer: www.unsigned.test A')).getByLabelText('Answer: insecure'),
    ).toBeInTheDocument();
    expect(connectors().at(-1)).toBe('↓ unsigned (insecure delegation)');
    const verdict = screen.getByTestId('chain-verdict');
    expect(verdict).toHaveTextContent(
      'Fix: To protect its answers, sign unsigned.test and publish its DS at the parent (through the registrar).',
    );
    expect(verdict).toHaveTextContent('RFC 4035 §4.3; RFC 4035 §5.2');
  });

  it('names the expired signature the chain breaks on, not a later lapse or one that does not matter', () => {
    show(expiredChain);
    expect(
      screen.getByText('The RRSIG DNSKEY by key 40000 of example.test expired yesterday.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/First signature to lapse/)).not.toBeInTheDocument();
    expect(connectors().at(-1)).toBe('↓ not validated');
  });

  it('counts only signatures the chain rests on for the first lapse', () => {
    // the ZSK's signature over test's DNSKEY set lapses tomorrow but vouches for nothing
    show({ ...expiredChain, status: 'secure', failure: null, zones: expiredChain.zones.slice(0, 2) });
    expect(screen.getByText('First signature to lapse expires in 12 days.')).toBeInTheDocument();
  });

  it('says a DS set is signed by the parent, and names a configured trust anchor file in words', () => {
    show(dsChain);
    expect(connectors().at(-1)).toBe('↓ signed by test');
    expect(screen.getByTestId('chain-verdict')).toHaveTextContent(
      'Trust anchors: the file set in DNSSEC_TRUST_ANCHORS (key tag 48003).',
    );
  });

  it('shows the NSEC proof of an NXDOMAIN answer', () => {
    show(nxdomainChain);
    const answer = answerCard('Answer: nope.example.test A');
    expect(answer).toHaveTextContent('The name does not exist (NXDOMAIN).');
    const proof = within(answer).getByRole('region', { name: 'Proof of non-existence' });
    expect(proof).toHaveTextContent(/NSEC proof that the name does not existproven/);
    expect(proof).toHaveTextContent('Closest encloser: example.test.');
    expect(proof).toHaveTextContent('mail.example.test. 3600 IN NSEC www.example.test. A RRSIG NSEC');
  });
});
