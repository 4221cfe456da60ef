import { Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';

import { onRateLimited } from '../lib/api.ts';
import type { RateLimitDetails } from '../lib/rate-limiter.ts';

const TOAST_ID = 'rate-limit';

const classNames: Record<string, string> = {
  auth: 'sign-in and account',
  validation: 'validation',
  generation: 'generation',
  profile: 'profile and organisation',
  organisation: 'organisation',
  default: '',
};

function secondsUntil(resetAt: number): number {
  return Math.max(0, Math.ceil((resetAt - Date.now()) / 1000));
}

/** The ticking wait. Hidden from screen readers, which get the wait once, not every second. */
function Countdown({ resetAt }: { resetAt: number }) {
  const [seconds, setSeconds] = useState(() => secondsUntil(resetAt));
  useEffect(() => {
    const timer = window.setInterval(() => {
      const left = secondsUntil(resetAt);
      setSeconds(left);
      if (left === 0) notifications.hide(TOAST_ID);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [resetAt]);
  return (
    <span aria-hidden="true" data-testid="rate-limit-countdown">
      Try again in {seconds} s.
    </span>
  );
}

function describe(details: RateLimitDetails): string {
  const kind = details.limitClass === undefined ? '' : (classNames[details.limitClass] ?? '');
  const what = kind === '' ? 'requests' : `${kind} requests`;
  if (details.limit === undefined) return `Too many ${what} in the last minute.`;
  return `Too many ${what}: the limit is ${details.limit} per ${details.windowMs / 1000} seconds.`;
}

function show(details: RateLimitDetails): void {
  const message = (
    <>
      <Text size="sm">{describe(details)}</Text>
      <Text size="sm">
        <Countdown resetAt={details.resetAt} />
        <VisuallyHidden>Try again in {details.retryAfter} seconds.</VisuallyHidden>
      </Text>
    </>
  );
  const toast = {
    id: TOAST_ID,
    title: 'Rate limit exceeded',
    message,
    color: 'orange',
    // announced once when it appears; the countdown inside is hidden from screen readers
    role: 'alert',
    autoClose: false as const,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': 'Dismiss' },
  };
  // one toast, refreshed by later refusals instead of stacking (show ignores an id already shown)
  notifications.show(toast);
  notifications.update(toast);
}

/** The dismissible toast with a countdown whenever the limiter or the server refuses a call (spec part 1 §8). */
export function RateLimitToasts() {
  useEffect(() => onRateLimited(show), []);
  return null;
}
