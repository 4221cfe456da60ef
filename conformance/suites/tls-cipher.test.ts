import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tlsServerConfig, validateCipherSuite } from '@rfckit/standards';

const tlsDir = path.join(process.env.CONFORMANCE_DIR!, 'tls');
const read = (file: string) => readFileSync(path.join(tlsDir, file), 'utf8');

describe('TLS cipher validator against the IANA registry and ciphersuite.info', () => {
  // assigned rows only: "0xC0,0x2F",NAME,… (ranges such as 0x00,0x1C-1D are Unassigned/Reserved)
  const rows = read('iana-tls-cipher-suites.csv')
    .split('\n')
    .map((line) => /^"(0x[0-9A-F]{2},0x[0-9A-F]{2})",(TLS_[A-Za-z0-9_]+),/.exec(line))
    .filter((match) => match !== null && !/UNASSIGNED|RESERVED|EMPTY|FALLBACK/.test(match[2]!));

  it('finds every assigned suite by its code point and by its name', () => {
    assert.equal(rows.length, 350);
    for (const row of rows) {
      const [, hex, name] = row!;
      assert.equal(validateCipherSuite(hex!).cipher, name, hex);
      assert.equal(validateCipherSuite(hex!.replace(/0x|,/g, '').toLowerCase()).cipher, name, hex);
      assert.equal(validateCipherSuite(name!).suite?.hex, hex, name);
    }
  });

  it('finds every OpenSSL name at the code point ciphersuite.info gives it', () => {
    const entries = [
      ...read('ciphersuite-info/02_openssl_ciphers.yaml').matchAll(
        /pk: '([^']+)'\s+fields:\s+hex_byte_1: '0x([0-9A-F]{2})'\s+hex_byte_2: '0x([0-9A-F]{2})'/g,
      ),
    ];
    assert.ok(entries.length > 100, `only ${entries.length} OpenSSL names read`);
    for (const [, name, first, second] of entries) {
      const result = validateCipherSuite(name!);
      // an OpenSSL alias that is also another suite's IANA name resolves to that suite (lookup.ts)
      if (result.known && result.cipher === name) continue;
      assert.equal(result.suite?.hex, `0x${first},0x${second}`, name);
    }
  });
});

describe('Server configurations against Mozilla’s guidelines 5.8', () => {
  const guidelines = JSON.parse(read('mozilla/guidelines-5.8.json')) as {
    configurations: Record<
      string,
      { tls_versions: string[]; ciphers: { openssl: string[] }; ciphersuites: string[] }
    >;
  };
  for (const profile of ['modern', 'intermediate', 'old'] as const) {
    const expected = guidelines.configurations[profile]!;
    it(`${profile}: nginx, Apache and Postfix carry the profile’s versions and suites`, () => {
      const nginx = tlsServerConfig(profile, 'nginx').config;
      assert.ok(nginx.includes(`ssl_protocols ${expected.tls_versions.join(' ')};`), nginx);
      if (expected.ciphers.openssl.length > 0)
        assert.match(nginx, new RegExp(`ssl_ciphers ${expected.ciphers.openssl.join(':')}(:@SECLEVEL=0)?;`));
      else assert.ok(!nginx.includes('ssl_ciphers'));
      assert.ok(nginx.includes(`Ciphersuites ${expected.ciphersuites.join(':')};`));
      const apache = tlsServerConfig(profile, 'apache').config;
      assert.ok(
        apache.includes(`SSLProtocol -all ${expected.tls_versions.map((v) => `+${v}`).join(' ')}`),
        apache,
      );
      assert.deepEqual(tlsServerConfig(profile, 'postfix').ciphers, expected.ciphers.openssl);
    });
  }

  it('6.0 (the newest) lists the same modern and intermediate suites as 5.8', () => {
    const latest = JSON.parse(read('mozilla/guidelines-6.0.json')) as typeof guidelines;
    for (const profile of ['modern', 'intermediate'])
      assert.deepEqual(
        latest.configurations[profile]!.ciphers.openssl,
        guidelines.configurations[profile]!.ciphers.openssl,
      );
  });
});
