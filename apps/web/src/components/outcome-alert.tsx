import { Alert } from '@mantine/core';

import type { Outcome } from '../lib/form-submission.ts';

/** A form's outcome: green when it went through, red with the reason when not; nothing before. */
export function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  if (outcome === null) return null;
  return <Alert color={outcome.kind === 'done' ? 'green' : 'red'}>{outcome.message}</Alert>;
}
