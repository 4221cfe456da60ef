import type { Outcome } from '@rfckit/standards';
import { HttpError } from '../plugins/errors.ts';

/**
 * The result of an Outcome, or the refusal as the client's error: 400 VALIDATION_ERROR unless the
 * outcome names its own status and code (422 for input that parses but cannot be acted on).
 */
export function resultOf<Result>(outcome: Outcome<Result, { status?: 400 | 422; code?: string }>): Result {
  if (outcome.ok) return outcome.result;
  throw new HttpError(outcome.status ?? 400, outcome.code ?? 'VALIDATION_ERROR', outcome.error);
}
