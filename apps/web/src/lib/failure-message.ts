import {
  couldNotCheckAdvice,
  couldNotCheckTitles,
  isCouldNotCheckCode,
  retryMayHelp,
  type CouldNotCheckCode,
  type TriedTarget,
} from '@rfckit/standards';

import { ApiError, NETWORK_ERROR_MESSAGE, UNEXPECTED_ERROR_MESSAGE } from './api.ts';

/** A call that ended because our resolver or the network failed, not the user's configuration. */
export interface CouldNotCheck {
  title: string;
  message: string;
  /** What the user can do about it. */
  advice: string;
  /** Whether the notice offers to send the same request again. */
  retry: boolean;
  tried: readonly TriedTarget[];
}

/** A tool's own advice for some codes, where its words fit better than the general ones. */
export type CouldNotCheckAdvice = Partial<Record<CouldNotCheckCode, string>>;

/** Advice for a certificate read from a host and port the user gave: the target, not our side, is the likely cause. */
export const certificateFetchAdvice: CouldNotCheckAdvice = {
  PROTOCOL_ERROR:
    'The port did not speak TLS as asked: check the port, and the STARTTLS choice (SMTP on 25 and 587 upgrades a plain session; 465 and 443 speak TLS from the start).',
  CONNECT_FAILED: 'Nothing accepted the connection: check the host and port, or a firewall in between.',
};

/**
 * The "we could not check" reading of a failed call (docs/architecture.md §6): our server, our DNS
 * resolver or the site could not be reached. Null for any other failure, which is the tool's own.
 * When no answer came from our server, `noAnswer` words it (the spec's text for the tool).
 */
export function couldNotCheck(
  error: unknown,
  noAnswer?: (error: ApiError) => string,
  advice: CouldNotCheckAdvice = {},
): CouldNotCheck | null {
  if (!(error instanceof ApiError) || !isCouldNotCheckCode(error.code)) return null;
  const message =
    error.code === 'NETWORK_ERROR'
      ? (noAnswer?.(error) ?? (error.message || NETWORK_ERROR_MESSAGE))
      : error.message;
  return {
    title: couldNotCheckTitles[error.code],
    message,
    advice: advice[error.code] ?? couldNotCheckAdvice[error.code],
    retry: retryMayHelp(error.code),
    tried: error.tried,
  };
}

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
