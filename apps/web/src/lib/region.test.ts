import { describe, expect, it } from 'vitest';
import { checkRegion, deniedCountries } from './region.ts';
import { countryOfTimeZone } from './time-zone-countries.ts';

const trace = (loc: string) => async () =>
  new Response(`fl=1\nh=rfckit.example\nip=203.0.113.9\nts=1.2\nloc=${loc}\nhttp=http/1.1\n`, {
    status: 200,
  });

describe('region check', () => {
  it('takes the country from /cdn-cgi/trace and the server list', async () => {
    await expect(checkRegion({ fetch: trace('RU'), denied: ['RU', 'KP'] })).resolves.toEqual({
      allowed: false,
      country: 'RU',
      source: 'trace',
    });
    await expect(checkRegion({ fetch: trace('DE'), denied: ['RU'] })).resolves.toMatchObject({
      allowed: true,
    });
    // unknown (XX) is allowed
    await expect(checkRegion({ fetch: trace('XX'), denied: ['RU'] })).resolves.toMatchObject({
      allowed: true,
      country: 'XX',
    });
  });

  it('falls back to the time zone when the trace cannot be reached', async () => {
    const offline = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(
      checkRegion({
        fetch: offline,
        denied: ['IR'],
        timeZoneCountry: async () => countryOfTimeZone('Asia/Tehran'),
      }),
    ).resolves.toEqual({ allowed: false, country: 'IR', source: 'time zone' });
    await expect(
      checkRegion({
        fetch: offline,
        denied: ['IR'],
        timeZoneCountry: async () => countryOfTimeZone('Etc/UTC'),
      }),
    ).resolves.toEqual({ allowed: true, country: 'XX', source: 'unknown' });
  });

  it('treats a trace without loc like no trace', async () => {
    const noLoc = async () => new Response('fl=1\nh=x\n', { status: 200 });
    await expect(
      checkRegion({ fetch: noLoc, denied: ['DE'], timeZoneCountry: async () => 'DE' }),
    ).resolves.toMatchObject({ allowed: false, source: 'time zone' });
  });

  it('reads the server list from the page, else uses the spec list', () => {
    const page = document.implementation.createHTMLDocument('x');
    expect(deniedCountries(page)).toContain('RU');
    expect(deniedCountries(page)).toHaveLength(24);
    const meta = page.createElement('meta');
    meta.name = 'rfckit-denied-countries';
    meta.content = 'ru, kp';
    page.head.append(meta);
    expect(deniedCountries(page)).toEqual(['RU', 'KP']);
    meta.content = '';
    expect(deniedCountries(page)).toEqual([]);
  });

  it('knows current and legacy time zone names', () => {
    expect(countryOfTimeZone('Europe/Moscow')).toBe('RU');
    expect(countryOfTimeZone('Asia/Vladivostok')).toBe('RU');
    expect(countryOfTimeZone('Asia/Calcutta')).toBe('IN');
    expect(countryOfTimeZone('Asia/Kolkata')).toBe('IN');
    expect(countryOfTimeZone('Europe/Kyiv')).toBe('UA');
    expect(countryOfTimeZone('America/New_York')).toBe('US');
    expect(countryOfTimeZone('UTC')).toBeUndefined();
  });
});
