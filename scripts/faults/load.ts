// The clients of the fault run: each reads and writes in a loop and classifies every answer.
// An answer is acceptable when it is 2xx, or 503 in the error envelope with Retry-After and
// the security headers; anything else (500, another status, a dropped connection, no answer
// in time) is a failure.
import { sleep } from './services.ts';

const REQUEST_TIMEOUT_MS = 15_000;
// room for the server to breathe on a shared machine: the load is about concurrency, not throughput
const PAUSE_MS = 10;
const FAILURES_KEPT = 20;

export interface Tally {
  requests: number;
  ok: number;
  /** 503 answers by code. */
  unavailable: Record<string, number>;
  failures: number;
}

export function emptyTally(): Tally {
  return { requests: 0, ok: 0, unavailable: {}, failures: 0 };
}

export class Load {
  /** Per phase of the run, in the order the phases began. */
  readonly tallies = new Map<string, Tally>();
  /** The first failures, with their phase. */
  readonly failureSamples: string[] = [];
  /** Organisation names whose PUT answered 2xx: each must be in the activity log afterwards. */
  readonly confirmedWrites: string[] = [];
  private phase = 'start';
  private running = false;
  private readonly clients: Promise<void>[] = [];

  private readonly baseUrl: string;
  private readonly token: string;

  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  setPhase(phase: string): void {
    this.phase = phase;
  }

  private tally(): Tally {
    let tally = this.tallies.get(this.phase);
    if (tally === undefined) {
      tally = emptyTally();
      this.tallies.set(this.phase, tally);
    }
    return tally;
  }

  private fail(detail: string): void {
    const tally = this.tally();
    tally.failures += 1;
    if (this.failureSamples.length < FAILURES_KEPT) this.failureSamples.push(`[${this.phase}] ${detail}`);
  }

  /** One request; true when it answered 2xx. */
  private async call(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<boolean> {
    const tally = this.tally();
    tally.requests += 1;
    const what = `${method} ${path}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      this.fail(
        `${what}: no answer (${(error as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ''})`,
      );
      return false;
    }
    if (response.status >= 200 && response.status < 300) {
      tally.ok += 1;
      return true;
    }
    if (response.status === 503) {
      const problem = envelopeProblem(response, text);
      if (problem === undefined) {
        const { code } = JSON.parse(text) as { code: string };
        tally.unavailable[code] = (tally.unavailable[code] ?? 0) + 1;
      } else {
        this.fail(`${what}: 503 ${problem}: ${text.slice(0, 200)}`);
      }
      return false;
    }
    this.fail(`${what}: ${response.status} ${text.slice(0, 200)}`);
    return false;
  }

  private async client(index: number): Promise<void> {
    for (let round = 0; this.running; round += 1) {
      switch (round % 4) {
        case 0:
        case 2:
          await this.call('GET', '/v1/organisation');
          break;
        case 1:
          await this.call('GET', '/v1/health');
          break;
        default: {
          const name = `Faults ${index}-${round}`;
          if (await this.call('PUT', '/v1/organisation', { name })) this.confirmedWrites.push(name);
        }
      }
      await sleep(PAUSE_MS);
    }
  }

  start(clients: number): void {
    this.running = true;
    for (let index = 0; index < clients; index += 1) this.clients.push(this.client(index));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.clients);
  }

  total(): Tally {
    const total = emptyTally();
    for (const tally of this.tallies.values()) {
      total.requests += tally.requests;
      total.ok += tally.ok;
      total.failures += tally.failures;
      for (const [code, count] of Object.entries(tally.unavailable))
        total.unavailable[code] = (total.unavailable[code] ?? 0) + count;
    }
    return total;
  }
}

/** What is wrong with a 503, or undefined when it is the envelope with Retry-After and our headers. */
export function envelopeProblem(response: Response, text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  const { success, error, code } = (body ?? {}) as { success?: unknown; error?: unknown; code?: unknown };
  if (success !== false || typeof error !== 'string' || typeof code !== 'string')
    return 'not the error envelope';
  if (response.headers.get('retry-after') === null) return 'no Retry-After';
  if (response.headers.get('x-content-type-options') !== 'nosniff') return 'no security headers';
  if (response.headers.get('content-security-policy') === null) return 'no Content-Security-Policy';
  return undefined;
}
