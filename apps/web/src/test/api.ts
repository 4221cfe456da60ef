import { vi } from 'vitest';

/** A Response carrying `body` as the API's JSON. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch mock that answers every call with `body`, the whole envelope as given. */
export function respondWith(body: unknown, status = 200) {
  return vi.fn<typeof fetch>().mockImplementation(async () => json(body, status));
}

/** A fetch mock that answers with the API's success envelope around `data`, what the server computed. */
export function succeedWith(data: unknown) {
  return respondWith({ success: true, data });
}

/** A fetch mock that answers with the API's error envelope. */
export function failWith(error: string, code: string, status: number) {
  return respondWith({ success: false, error, code }, status);
}
