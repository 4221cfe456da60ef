import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDnssecLab, dnssecLabNames } from './dnssec-lab.ts';

describe('buildDnssecLab without dnssec-signzone', () => {
  const saved = { PATH: process.env.PATH, CI: process.env.CI };
  let empty: string;

  beforeEach(() => {
    // a PATH with nothing on it: no signer (and no shell to look for one)
    empty = mkdtempSync(path.join(tmpdir(), 'rfckit-no-signer-'));
    process.env.PATH = empty;
  });
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.CI === undefined) delete process.env.CI;
    else process.env.CI = saved.CI;
    rmSync(empty, { recursive: true, force: true });
  });

  it('fails in CI with the command that installs it', async () => {
    process.env.CI = 'true';
    await expect(buildDnssecLab()).rejects.toThrow(
      'the DNSSEC lab needs dnssec-signzone and dnssec-keygen: apt-get install bind9-utils',
    );
  });

  it('serves the recordings elsewhere, and refuses records that would need signing', async () => {
    delete process.env.CI;
    const lab = await buildDnssecLab();
    expect(lab.source).toBe('recorded');
    expect(lab.names).toBe(dnssecLabNames);
    expect(lab.trustAnchors).toMatch(/^\. IN DS \d+ 13 2 [0-9A-F]{64}$/m);
    // the root, test. and ten domains
    expect(lab.zones).toHaveLength(12);
    await expect(
      buildDnssecLab({ extraRecords: { 'secure.test': ['a.secure.test. 300 IN A 127.0.0.1'] } }),
    ).rejects.toThrow(
      'extra records must be signed, which needs dnssec-signzone: apt-get install bind9-utils',
    );
  });
});
