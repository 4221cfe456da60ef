// Expected values are Mozilla's Server Side TLS guidelines 5.8 (conformance/tls/mozilla/guidelines-5.8.json)
// as published, typed here from the file, and each server's documented directive syntax.
import { describe, expect, it } from 'vitest';
import { tlsConfigServers, tlsServerConfig } from './server-config.ts';
import type { MozillaProfile } from './suite.ts';

const intermediateOpenssl = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
];
const tls13 = 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256';
const curves = 'X25519MLKEM768:X25519:prime256v1:secp384r1';

const line = (config: string, directive: string) =>
  config
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text.startsWith(`${directive} `));

describe('tlsServerConfig', () => {
  it('writes nginx intermediate with TLS 1.2 + 1.3 and exactly Mozilla’s intermediate suites', () => {
    const result = tlsServerConfig('intermediate', 'nginx');
    expect(line(result.config, 'ssl_protocols')).toEqual(['ssl_protocols TLSv1.2 TLSv1.3;']);
    expect(line(result.config, 'ssl_ciphers')).toEqual([`ssl_ciphers ${intermediateOpenssl.join(':')};`]);
    expect(line(result.config, 'ssl_ecdh_curve')).toEqual([`ssl_ecdh_curve ${curves};`]);
    expect(line(result.config, 'ssl_conf_command')).toEqual([`ssl_conf_command Ciphersuites ${tls13};`]);
    expect(line(result.config, 'ssl_prefer_server_ciphers')).toEqual(['ssl_prefer_server_ciphers off;']);
    expect(line(result.config, 'add_header')).toEqual([
      'add_header Strict-Transport-Security "max-age=63072000" always;',
    ]);
    expect(line(result.config, 'ssl_stapling')).toEqual(['ssl_stapling on;']);
    expect(line(result.config, 'ssl_dhparam')).toEqual([]);
    expect(result.ciphers).toEqual(intermediateOpenssl);
    expect(result.protocols).toEqual(['TLSv1.2', 'TLSv1.3']);
    expect(result.guidelinesVersion).toBe('5.8');
    expect(result.dhParams).toContain('no DHE suites');
  });

  it('writes nginx modern with TLS 1.3 only and no TLS 1.2 cipher list', () => {
    const { config } = tlsServerConfig('modern', 'nginx');
    expect(line(config, 'ssl_protocols')).toEqual(['ssl_protocols TLSv1.3;']);
    expect(line(config, 'ssl_ciphers')).toEqual([]);
  });

  it('writes nginx old with TLS 1.0-1.3, server order and @SECLEVEL=0 for OpenSSL 3', () => {
    const { config, ciphers } = tlsServerConfig('old', 'nginx');
    expect(line(config, 'ssl_protocols')).toEqual(['ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;']);
    expect(line(config, 'ssl_prefer_server_ciphers')).toEqual(['ssl_prefer_server_ciphers on;']);
    expect(ciphers).toHaveLength(21);
    expect(ciphers.at(-1)).toBe('DES-CBC3-SHA');
    expect(line(config, 'ssl_ciphers')[0]).toBe(`ssl_ciphers ${ciphers.join(':')}:@SECLEVEL=0;`);
  });

  it('writes Apache modern', () => {
    const { config } = tlsServerConfig('modern', 'apache');
    expect(line(config, 'SSLProtocol')).toEqual(['SSLProtocol -all +TLSv1.3']);
    expect(line(config, 'SSLCipherSuite')).toEqual([`SSLCipherSuite TLSv1.3 ${tls13}`]);
    expect(line(config, 'SSLHonorCipherOrder')).toEqual(['SSLHonorCipherOrder off']);
    expect(line(config, 'SSLUseStapling')).toEqual(['SSLUseStapling On']);
    expect(line(config, 'Header')).toEqual([
      'Header always set Strict-Transport-Security "max-age=63072000"',
    ]);
  });

  it('writes HAProxy intermediate with the minimum version and client preference', () => {
    const { config } = tlsServerConfig('intermediate', 'haproxy');
    expect(line(config, 'ssl-default-bind-options')).toEqual([
      'ssl-default-bind-options prefer-client-ciphers ssl-min-ver TLSv1.2 no-tls-tickets',
    ]);
    expect(line(config, 'ssl-default-bind-ciphers')).toEqual([
      `ssl-default-bind-ciphers ${intermediateOpenssl.join(':')}`,
    ]);
    expect(line(config, 'ssl-default-bind-ciphersuites')).toEqual([`ssl-default-bind-ciphersuites ${tls13}`]);
  });

  it('writes Caddy with IANA names and Go’s group names, and says what Go cannot do', () => {
    const intermediate = tlsServerConfig('intermediate', 'caddy');
    expect(line(intermediate.config, 'protocols')).toEqual(['protocols tls1.2 tls1.3']);
    expect(line(intermediate.config, 'curves')).toEqual(['curves x25519mlkem768 x25519 secp256r1 secp384r1']);
    expect(intermediate.ciphers).toEqual([
      'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
      'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
      'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
      'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
    ]);
    const old = tlsServerConfig('old', 'caddy');
    expect(old.protocols).toEqual(['TLSv1.2', 'TLSv1.3']);
    expect(old.notes.join(' ')).toContain('does not offer TLS 1.0 or 1.1');
    // Go has no ECDHE CBC-SHA384 and no RSA AES-256 CBC-SHA256 suites
    expect(old.notes.join(' ')).toContain('TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384');
    expect(old.ciphers).not.toContain('TLS_RSA_WITH_AES_256_CBC_SHA256');
  });

  it('writes Postfix without HSTS, pointing at MTA-STS and DANE', () => {
    const result = tlsServerConfig('intermediate', 'postfix');
    expect(line(result.config, 'smtpd_tls_protocols')).toEqual([
      'smtpd_tls_protocols = !SSLv2, !SSLv3, !TLSv1, !TLSv1.1',
    ]);
    expect(line(result.config, 'tls_medium_cipherlist')).toEqual([
      `tls_medium_cipherlist = ${intermediateOpenssl.join(':')}`,
    ]);
    expect(line(result.config, 'tls_eecdh_auto_curves')).toEqual([
      'tls_eecdh_auto_curves = X25519MLKEM768 X25519 prime256v1 secp384r1',
    ]);
    expect(result.hsts).toBeNull();
    expect(result.notes.join(' ')).toContain('RFC 8461');
  });

  it('writes Node with one cipher list for TLS 1.3 and 1.2', () => {
    const { config } = tlsServerConfig('intermediate', 'node');
    expect(line(config, 'minVersion:')).toEqual(["minVersion: 'TLSv1.2',"]);
    expect(line(config, 'ciphers:')).toEqual([`ciphers: '${tls13}:${intermediateOpenssl.join(':')}',`]);
    expect(line(config, 'ecdhCurve:')).toEqual([`ecdhCurve: '${curves}',`]);
    expect(line(tlsServerConfig('old', 'node').config, 'minVersion:')).toEqual(["minVersion: 'TLSv1',"]);
  });

  it('gives every server and profile its own text', () => {
    const texts = new Set<string>();
    for (const profile of ['modern', 'intermediate', 'old'] as MozillaProfile[])
      for (const server of tlsConfigServers) texts.add(tlsServerConfig(profile, server).config);
    expect(texts.size).toBe(18);
  });
});
