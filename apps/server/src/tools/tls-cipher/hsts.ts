import { type HstsCheck, parseHsts } from '@rfckit/standards';
import { headerValues } from '../../net/http.ts';
import type { NetSession } from '../../net/layer.ts';

const HSTS_TIMEOUT_MS = 8_000;

/**
 * The HSTS policy of `https://host/` (RFC 6797 §6.1), which SSL Labs' A+ needs. Browsers only heed
 * the header over a connection without certificate errors (§8.1), so a failed fetch means no HSTS
 * we can credit; the note says why it was not read.
 */
export async function fetchHsts(net: NetSession, host: string, signal: AbortSignal): Promise<HstsCheck> {
  const authority = host.includes(':') ? `[${host}]` : host;
  try {
    const response = await net.fetch(`https://${authority}/`, {
      method: 'HEAD',
      followRedirects: false,
      limits: { totalTimeoutMs: HSTS_TIMEOUT_MS, connectTimeoutMs: HSTS_TIMEOUT_MS },
      signal,
    });
    const values = headerValues(response.headers, 'strict-transport-security');
    if (values.length === 0)
      return { checked: true, note: `https://${authority}/ sends no Strict-Transport-Security header` };
    const policy = parseHsts(values.join(', '));
    if ('error' in policy) return { checked: true, note: `Browsers ignore the HSTS header: ${policy.error}` };
    return { checked: true, maxAge: policy.maxAge };
  } catch (error) {
    return { checked: false, note: `HSTS could not be read: ${(error as Error).message}` };
  }
}
