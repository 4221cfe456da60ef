import { findHstsPreload, hstsPreloadList } from '@rfckit/standards';
import { describe, expect, it } from 'vitest';
import { parseHstsPreloadFile } from './hsts-preload.ts';

// the shape of Chromium's net/http/transport_security_state_static.json, comments included
const chromiumStyle = `// Copyright 2012 The Chromium Authors
// This file contains the HSTS preloaded list.
{
  "pinsets": [],
  "entries": [
    // Google domains
    { "name": "google", "policy": "public-suffix", "mode": "force-https", "include_subdomains": true },
    { "name": "pinned.example", "policy": "custom", "pins": "test", "include_subdomains_for_pinning": true },
    { "name": "www.example.org", "policy": "custom", "mode": "force-https" },
    { "policy": "custom", "mode": "force-https" }
  ]
}
`;

describe('HSTS preload file', () => {
  it("reads Chromium's list, comment lines and pin-only entries included", () => {
    const entries = parseHstsPreloadFile(chromiumStyle);
    expect(entries).toEqual([
      { name: 'google', mode: 'force-https', include_subdomains: true },
      { name: 'pinned.example' },
      { name: 'www.example.org', mode: 'force-https' },
    ]);
    const lookup = hstsPreloadList(entries);
    expect(findHstsPreload('mail.google', lookup)?.name).toBe('google');
    expect(findHstsPreload('www.example.org', lookup)?.name).toBe('www.example.org');
    // a pin-only entry forces nothing, and a parent without include_subdomains covers no child
    expect(findHstsPreload('pinned.example', lookup)).toBeNull();
    expect(findHstsPreload('a.www.example.org', lookup)).toBeNull();
  });

  it('refuses a file that is not the list', () => {
    expect(() => parseHstsPreloadFile('{"pinsets": []}')).toThrow('it has no "entries" list');
    expect(() => parseHstsPreloadFile('not json')).toThrow(SyntaxError);
  });
});
