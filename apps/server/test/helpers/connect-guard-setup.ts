// Vitest setup file of the server project (vitest.config.ts): every test file runs under the
// connect guard, and a test during which anything reached for a non-loopback address fails.
import { afterEach, expect } from 'vitest';
import { installConnectGuard } from './connect-guard.ts';

const guard = installConnectGuard();

afterEach(() => {
  const attempted = guard.violations.splice(0);
  expect(attempted, 'a connection outside 127.0.0.0/8 and ::1 was attempted').toEqual([]);
});
