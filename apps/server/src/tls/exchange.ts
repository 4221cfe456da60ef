// One probe: a fresh connection (after any STARTTLS dialogue), one ClientHello, and what the
// server's first flight says, read only as far as the scan needs it.
import {
  type Alert,
  type EarlyCcsReply,
  type EarlyCcsVerdict,
  type ServerHello,
  type ServerKeyExchange,
  type Ssl2Message,
  changeCipherSpecRecord,
  earlyCcsVerdict,
  heartbeatLeaks,
  heartbeatRequest,
  parseCertificate,
  parseRecords,
  parseServerHello,
  parseServerKeyExchange,
  parseSsl2ServerHello,
  protocolVersions,
  readSsl2Record,
  readTlsStream,
  serverKeyExchangeKindOf,
  suiteByCode,
} from '@rfckit/standards';
import { NetError } from '../net/errors.ts';
import type { ProbeClient, ProbeConnection } from '../net/probe.ts';
import { startTls, type StarttlsProtocol } from '../net/starttls.ts';
import type { CheckedTarget } from '../net/target.ts';

export type ProbeAnswer =
  | {
      kind: 'hello';
      hello: ServerHello;
      /** DER certificates of a TLS 1.2-or-older Certificate message, leaf first. */
      certificates?: Uint8Array[];
      keyExchange?: ServerKeyExchange;
      /** ServerHelloDone arrived (TLS 1.2 and older). */
      done: boolean;
      /** After a heartbeat request: the server leaked memory (true), or kept quiet / refused (false). */
      heartbleed?: boolean;
      /** After two early ChangeCipherSpec records: the server's answers and testssl.sh's verdict on them. */
      earlyCcs?: EarlyCcsVerdict;
    }
  | { kind: 'alert'; alert: Alert }
  | { kind: 'ssl2'; message: Ssl2Message }
  /** The server closed, or sent nothing within the time, without a word of TLS. */
  | { kind: 'silent'; end: 'closed' | 'timeout' }
  | { kind: 'not-tls'; sample: string };

export interface ExchangeSettings {
  probe: ProbeClient;
  target: CheckedTarget;
  starttls: StarttlsProtocol | undefined;
  /** The name for SNI and for STARTTLS greetings. */
  host: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Counts every connection opened. */
  onConnection: () => void;
}

/** Bounded concurrency: at most `size` connections to the target at once. */
export class ConnectionSlots {
  private size: number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.size = size;
  }

  /** Fewer connections from now on; those open finish first. */
  narrow(size: number): void {
    this.size = Math.min(this.size, size);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const HEARTBEAT_CLAIMED_LENGTH = 0x4000;
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Opens a connection and runs the STARTTLS dialogue, if any. */
export async function openConnection(settings: ExchangeSettings): Promise<ProbeConnection> {
  settings.onConnection();
  const connection = await settings.probe.connect(settings.target, { signal: settings.signal });
  if (settings.starttls !== undefined) {
    try {
      await startTls(connection, settings.starttls, {
        host: settings.host,
        clientName: 'rfckit.invalid',
        timeoutMs: settings.timeoutMs,
      });
    } catch (error) {
      connection.close();
      throw error;
    }
  }
  return connection;
}

function sampleOf(bytes: Uint8Array): string {
  return decoder
    .decode(bytes.subarray(0, 80))
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim();
}

type Stop = 'server-hello' | 'hello-done';

/** Whether the bytes so far answer the hello far enough for `stop`, or cannot become an answer. */
function answered(bytes: Uint8Array, stop: Stop): boolean {
  const stream = readTlsStream(bytes);
  if (!stream.ok) return stream.code !== 'TRUNCATED';
  for (const event of stream.result.events) {
    if (event.kind === 'alert') return true;
    if (event.kind !== 'handshake') continue;
    if (event.message.name === 'server_hello') {
      if (stop === 'server-hello') return true;
      const hello = parseServerHello(event.message.body);
      if (!hello.ok || hello.result.helloRetryRequest || hello.result.version >= protocolVersions['TLSv1.3'])
        return true;
    }
    if (event.message.name === 'server_hello_done') return true;
  }
  return false;
}

function interpret(bytes: Uint8Array, end: string): ProbeAnswer {
  if (bytes.length === 0) return { kind: 'silent', end: end === 'timeout' ? 'timeout' : 'closed' };
  const stream = readTlsStream(bytes);
  if (!stream.ok && stream.code === 'NOT_TLS') return { kind: 'not-tls', sample: sampleOf(bytes) };
  const events = stream.ok ? stream.result.events : [];
  let hello: ServerHello | undefined;
  let certificates: Uint8Array[] | undefined;
  let keyExchange: ServerKeyExchange | undefined;
  let done = false;
  for (const event of events) {
    if (event.kind === 'alert' && hello === undefined) return { kind: 'alert', alert: event.alert };
    if (event.kind !== 'handshake') continue;
    const { name, body } = event.message;
    if (name === 'server_hello') {
      const parsed = parseServerHello(body);
      if (!parsed.ok) return { kind: 'not-tls', sample: `a malformed ServerHello (${parsed.error})` };
      hello = parsed.result;
    } else if (name === 'certificate' && hello !== undefined) {
      const parsed = parseCertificate(body);
      if (parsed.ok) certificates = parsed.result;
    } else if (name === 'server_key_exchange' && hello !== undefined) {
      const suite = suiteByCode(hello.cipherSuite);
      const kind = suite === undefined ? undefined : serverKeyExchangeKindOf(suite);
      if (kind !== undefined) {
        const parsed = parseServerKeyExchange(body, { ...kind, version: hello.version });
        if (parsed.ok) keyExchange = parsed.result;
      }
    } else if (name === 'server_hello_done') done = true;
  }
  if (hello === undefined) {
    if (!stream.ok) return { kind: 'not-tls', sample: `${stream.error}: ${sampleOf(bytes)}` };
    if (end === 'cap') return { kind: 'not-tls', sample: `${bytes.length} bytes without a ServerHello` };
    return { kind: 'silent', end: end === 'timeout' ? 'timeout' : 'closed' };
  }
  return {
    kind: 'hello',
    hello,
    ...(certificates === undefined ? {} : { certificates }),
    ...(keyExchange === undefined ? {} : { keyExchange }),
    done,
  };
}

/** Reads until one whole record (or bytes that cannot be TLS) arrived, the server closed, or time ran out. */
async function readRecord(connection: ProbeConnection, settings: ExchangeSettings): Promise<EarlyCcsReply> {
  const read = await connection.read((bytes) => {
    const split = parseRecords(bytes);
    return !split.ok || split.result.records.length > 0;
  }, settings.timeoutMs);
  if (read.end === 'aborted') throw settings.signal.reason as Error;
  return { bytes: read.bytes, end: read.end };
}

/**
 * Sends `clientHello` on a new connection and reads the answer up to `stop`. With `heartbeat`,
 * a server that agreed to the heartbeat extension and finished its flight is then sent one
 * heartbeat request claiming more payload than it carries (the Heartbleed probe). With
 * `earlyCcs`, a server that finished its flight is sent a ChangeCipherSpec before any key
 * exchange, then a second one, each answer awaited (the CCS injection probe of CVE-2014-0224).
 */
export async function exchange(
  settings: ExchangeSettings,
  clientHello: Uint8Array,
  options: { stop: Stop; heartbeat?: boolean; earlyCcs?: boolean },
): Promise<ProbeAnswer> {
  const connection = await openConnection(settings);
  try {
    connection.write(clientHello);
    const read = await connection.read((bytes) => answered(bytes, options.stop), settings.timeoutMs);
    if (read.end === 'aborted') throw settings.signal.reason as Error;
    const answer = interpret(read.bytes, read.end);
    if (options.heartbeat && answer.kind === 'hello' && answer.done && answer.hello.heartbeat !== undefined) {
      connection.write(heartbeatRequest(answer.hello.version, HEARTBEAT_CLAIMED_LENGTH));
      const reply = await connection.read((bytes) => {
        const stream = readTlsStream(bytes);
        return (
          !stream.ok ||
          stream.result.events.some((event) => event.kind === 'heartbeat' || event.kind === 'alert')
        );
      }, settings.timeoutMs);
      const stream = readTlsStream(reply.bytes);
      const leaked =
        stream.ok &&
        stream.result.events.some((event) => event.kind === 'heartbeat' && heartbeatLeaks(event.fragment, 0));
      // a response cut off by the read cap is a leak as well: only a bug sends that much
      return { ...answer, heartbleed: leaked || (reply.end === 'cap' && reply.bytes.length > 0) };
    }
    if (options.earlyCcs && answer.kind === 'hello' && answer.done) {
      const ccs = changeCipherSpecRecord(answer.hello.version);
      connection.write(ccs);
      const first = await readRecord(connection, settings);
      connection.write(ccs);
      const second = await readRecord(connection, settings);
      return { ...answer, earlyCcs: earlyCcsVerdict(first, second) };
    }
    return answer;
  } finally {
    connection.close();
  }
}

/** Sends an SSL 2.0 CLIENT-HELLO and reads the SERVER-HELLO (which lists every cipher kind it shares). */
export async function exchangeSsl2(
  settings: ExchangeSettings,
  clientHello: Uint8Array,
): Promise<ProbeAnswer> {
  const connection = await openConnection(settings);
  try {
    connection.write(clientHello);
    const read = await connection.read((bytes) => {
      const record = readSsl2Record(bytes);
      return record.ok || record.code !== 'TRUNCATED';
    }, settings.timeoutMs);
    if (read.end === 'aborted') throw settings.signal.reason as Error;
    if (read.bytes.length === 0)
      return { kind: 'silent', end: read.end === 'timeout' ? 'timeout' : 'closed' };
    const message = parseSsl2ServerHello(read.bytes);
    if (message.ok) return { kind: 'ssl2', message: message.result };
    // an SSL 3.0/TLS server answers a v2 hello with a TLS alert or its own ServerHello
    return interpret(read.bytes, read.end);
  } finally {
    connection.close();
  }
}

/** Turns a probe's failure into a NetError the scan can show, keeping NetErrors as they are. */
export function probeError(error: unknown): NetError {
  if (error instanceof NetError) return error;
  return new NetError('CONNECT_FAILED', (error as Error | undefined)?.message ?? String(error), {
    cause: error,
  });
}
