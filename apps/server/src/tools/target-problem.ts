import { NetError } from '../net/errors.ts';
import { HttpError } from '../plugins/errors.ts';

/** Our own resolver failing is ours to answer as a 5xx; everything else that stops a probe is the target's. */
const oursToAnswer = new Set<string>(['RESOLVER_UNAVAILABLE', 'DNS_TIMEOUT']);

/**
 * A target that cannot be reached for a TLS probe (nothing listens on the port, it speaks another
 * protocol, it never answers a ClientHello) is a 422 about the host and port the user gave, with the
 * same code and plain words: the probe ran, the target is what failed, so it is not our server's
 * error (5xx; docs/architecture.md §6).
 */
export function asTargetProblem(error: unknown): unknown {
  if (!(error instanceof NetError) || error.statusCode < 500 || oursToAnswer.has(error.code)) return error;
  return new HttpError(422, error.code, error.message, { cause: error, tried: error.tried });
}
