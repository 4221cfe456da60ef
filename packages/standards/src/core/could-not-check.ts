import { z } from 'zod';

/**
 * The two ways a check ends without a verdict on the user's configuration being the user's:
 * "we could not check" (our DNS resolver or our network failed, or the site could not be reached)
 * versus "your configuration fails" (a finding with its RFC section and fix). An error answer with
 * one of these codes is the first kind: the page says so in neutral words, offers a retry, lists
 * what was tried, and gives no fix for the user's domain (docs/architecture.md §6).
 */
export const couldNotCheckTitles = {
  RESOLVER_UNAVAILABLE: 'Our DNS resolver did not answer',
  DNS_TIMEOUT: 'Our DNS resolver did not answer',
  DNS_FAILED: 'The name could not be looked up',
  CONNECT_FAILED: 'Nothing answered',
  CONNECT_TIMEOUT: 'The site did not answer',
  TLS_HANDSHAKE_FAILED: 'No secure connection could be made',
  FIRST_BYTE_TIMEOUT: 'The site did not answer in time',
  TIMEOUT: 'The site did not answer in time',
  // HTTP clients and the TLS scanner both raise it: the message names the protocol expected
  PROTOCOL_ERROR: 'The server answered in another protocol',
  SITE_DOWN: 'The site could not be reached',
  /** Set by the web app when no answer came from our own server. */
  NETWORK_ERROR: 'Our server could not be reached',
} as const;

export type CouldNotCheckCode = keyof typeof couldNotCheckTitles;

const tryAgain = 'This says nothing about your configuration. Try again in a moment.';

/**
 * What the user can do about each, in the notice under its message. A passing failure (ours, the
 * network's, a slow site) says nothing about the configuration and is retried; a server that speaks
 * another protocol is a fact about the host and port asked for, and trying again will not change it.
 * A tool may word its own (the TLS tester names STARTTLS).
 */
export const couldNotCheckAdvice: Record<CouldNotCheckCode, string> = {
  RESOLVER_UNAVAILABLE: tryAgain,
  DNS_TIMEOUT: tryAgain,
  DNS_FAILED: tryAgain,
  CONNECT_FAILED: tryAgain,
  CONNECT_TIMEOUT: tryAgain,
  TLS_HANDSHAKE_FAILED: tryAgain,
  FIRST_BYTE_TIMEOUT: tryAgain,
  TIMEOUT: tryAgain,
  PROTOCOL_ERROR:
    'Trying again will not change this: the server on that port speaks another protocol. Check the address and port.',
  SITE_DOWN: tryAgain,
  NETWORK_ERROR: tryAgain,
};

/** Whether sending the same request again can end differently: not for a server that speaks another protocol. */
export function retryMayHelp(code: CouldNotCheckCode): boolean {
  return code !== 'PROTOCOL_ERROR';
}

export function isCouldNotCheckCode(code: string): code is CouldNotCheckCode {
  return Object.hasOwn(couldNotCheckTitles, code);
}

/** One lookup or fetch that was tried: the name or URL, and what came of it in plain words. */
export const triedTargetSchema = z.object({
  target: z.string().describe('The name looked up or the URL fetched'),
  outcome: z.string().describe('What came of it: a status, or the failure in plain words'),
});
export type TriedTarget = z.infer<typeof triedTargetSchema>;

/** `details` of an error answer that could not check: every name or URL that was tried. */
export const couldNotCheckDetailsSchema = z.object({
  tried: z.array(triedTargetSchema).describe('Every name looked up or URL fetched, with its outcome'),
});
export type CouldNotCheckDetails = z.infer<typeof couldNotCheckDetailsSchema>;
