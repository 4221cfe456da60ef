import { ApiError, NETWORK_ERROR_MESSAGE, UNEXPECTED_ERROR_MESSAGE } from './api.ts';

/**
 * The text of a tool call that failed (spec part 1 §8, part 2 §8): the server's own message;
 * 'Error: ' and the message when no answer came; the tool's fallback ('Failed to verify SPF
 * record') when the answer explained nothing (not our envelope, or the generic server fault).
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'NETWORK_ERROR') return `Error: ${error.message || NETWORK_ERROR_MESSAGE}`;
    return error.code === 'BAD_RESPONSE' || error.message === UNEXPECTED_ERROR_MESSAGE
      ? fallback
      : error.message;
  }
  return error instanceof Error && error.message ? `Error: ${error.message}` : fallback;
}
