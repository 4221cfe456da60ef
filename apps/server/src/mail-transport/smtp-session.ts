// A real SMTP session through the guarded probe layer, recorded step by step: connect, banner,
// EHLO, STARTTLS (RFC 3207) or implicit TLS (RFC 8314 §3), the TLS handshake, EHLO again, QUIT.
// It never sends MAIL FROM or DATA: nothing is delivered.
import { isIP } from 'node:net';
import { certificateFromHandshake } from '../tls/certificate.ts';
import { NetError } from '../net/errors.ts';
import type { NetSession } from '../net/layer.ts';
import { tlsHandshakeReason } from '../net/target.ts';
import type { ProbeConnection } from '../net/probe.ts';
import { readServerReply } from '../net/starttls.ts';
import type { TlsReport } from '../net/http.ts';

export type SmtpStepKind = 'connect' | 'banner' | 'ehlo' | 'starttls' | 'tls' | 'ehlo-tls' | 'quit';

export interface SmtpStep {
  kind: SmtpStepKind;
  /** The command line sent, e.g. "EHLO rfckit.example" (null for connect, banner and tls). */
  sent: string | null;
  /** Reply lines as received, without CRLF; [] when none. */
  reply: string[];
  code: number | null;
  /** Milliseconds since the session started. */
  startedMs: number;
  durationMs: number;
  ok: boolean;
  /** Plain words: "no banner within 30 s", "connection closed after STARTTLS" … */
  error: string | null;
}

export interface SmtpCertificate {
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  dnsNames: string[];
  pem: string;
}

export interface SmtpTlsDetails {
  version: string;
  /** The suite's IANA name as Node reports it. */
  cipher: string;
  servername: string | null;
  /** As the server sent it, leaf first. */
  chain: SmtpCertificate[];
  /** A PKIX path to Node's store or OUTBOUND_CA_FILE (dates and name judged apart). */
  trusted: boolean;
  /** OpenSSL's reason when not trusted. */
  trustError: string | null;
  /** The leaf is valid for the host name (RFC 6125 rules, one left-most wildcard label). */
  nameMatches: boolean;
  /** The leaf's notAfter is past or its notBefore still to come. */
  expired: boolean;
}

export interface SmtpSessionResult {
  host: string;
  port: number;
  address: string | null;
  mode: 'starttls' | 'implicit';
  steps: SmtpStep[];
  /** EHLO keywords, upper-case, with their parameters: before TLS, or over TLS on implicit TLS. */
  extensions: string[];
  /** The second EHLO's keywords, after STARTTLS; null when there was none (always on implicit TLS). */
  extensionsAfterTls: string[] | null;
  starttlsAdvertised: boolean;
  /** Null when TLS never completed. */
  tls: SmtpTlsDetails | null;
  /** Reached QUIT without a failure. */
  completed: boolean;
}

export interface SmtpTimeouts {
  connectMs: number;
  bannerMs: number;
  replyMs: number;
  handshakeMs: number;
  sessionMs: number;
}

export interface SmtpSessionOptions {
  host: string;
  port: number;
  /** Default: implicit on 465, STARTTLS otherwise. */
  mode?: 'starttls' | 'implicit';
  /** Our EHLO name. */
  clientName: string;
  signal: AbortSignal;
  /** Each step as it ends, for streaming. */
  onStep?: (step: SmtpStep) => void;
  timeouts?: Partial<SmtpTimeouts>;
}

/**
 * RFC 5321 §4.5.3.2 lets a client wait 5 minutes for the banner and most replies; a person waits
 * for this page, so we cap lower and name the limit in every error.
 */
export const SMTP_TIMEOUTS: Readonly<SmtpTimeouts> = {
  connectMs: 10_000,
  bannerMs: 30_000,
  replyMs: 30_000,
  handshakeMs: 15_000,
  sessionMs: 90_000,
};

/** "30 s" or "250 ms". */
export function formatLimit(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** EHLO keywords from a 250 reply: every line after the greeting, keyword upper-cased (RFC 5321 §4.1.1.1). */
export function ehloKeywords(reply: readonly string[]): string[] {
  return reply.slice(1).map((line) => {
    const [keyword = '', ...params] = line.slice(4).trim().split(/\s+/);
    return [keyword.toUpperCase(), ...params].join(' ');
  });
}

const hasKeyword = (extensions: readonly string[], keyword: string): boolean =>
  extensions.some((extension) => extension.split(' ')[0] === keyword);

function tlsDetails(report: TlsReport): SmtpTlsDetails {
  const certificate = certificateFromHandshake(report);
  return {
    version: report.protocol ?? 'unknown',
    cipher: report.cipher.standardName,
    servername: report.servername ?? null,
    chain: report.certificates.map((info) => ({
      subject: info.subject,
      issuer: info.issuer,
      notBefore: new Date(info.validFrom).toISOString(),
      notAfter: new Date(info.validTo).toISOString(),
      dnsNames: info.subjectAltNames
        .filter((name) => name.startsWith('DNS:'))
        .map((name) => name.slice('DNS:'.length)),
      pem: info.pem,
    })),
    trusted: certificate.trusted,
    trustError: certificate.trusted ? null : (certificate.problem?.message ?? 'not trusted'),
    nameMatches: certificate.nameMatches,
    expired: certificate.expired || certificate.notYetValid,
  };
}

/** OpenSSL's errors when the first bytes from the server are not a TLS record (a plain-text greeting). */
const NOT_TLS_CODES = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);

/** How long we wait for a server that did not speak TLS to show what it speaks instead. */
const PLAIN_GREETING_MS = 5_000;

/** Why a session stopped early, in the words of the step that failed. */
class StepFailure extends Error {}

/**
 * Runs one SMTP session. A target the outbound guard refuses (a private address) or a name that
 * does not resolve throws the probe layer's NetError; everything after that is a step.
 */
export async function runSmtpSession(
  net: NetSession,
  options: SmtpSessionOptions,
): Promise<SmtpSessionResult> {
  const limits = { ...SMTP_TIMEOUTS, ...options.timeouts };
  const mode = options.mode ?? (options.port === 465 ? 'implicit' : 'starttls');
  const sessionLimit = AbortSignal.timeout(limits.sessionMs);
  const signal = AbortSignal.any([options.signal, sessionLimit]);
  const target = await net.probe.target(options.host, options.port, options.signal);
  const servername = isIP(target.host) === 0 ? target.host : undefined;
  const started = performance.now();
  const result: SmtpSessionResult = {
    host: target.host,
    port: options.port,
    address: null,
    mode,
    steps: [],
    extensions: [],
    extensionsAfterTls: null,
    starttlsAdvertised: false,
    tls: null,
    completed: false,
  };

  const record = (
    kind: SmtpStepKind,
    at: number,
    fields: Partial<Pick<SmtpStep, 'sent' | 'reply' | 'code' | 'error'>> & { ok: boolean },
  ): SmtpStep => {
    const step: SmtpStep = {
      kind,
      sent: fields.sent ?? null,
      reply: fields.reply ?? [],
      code: fields.code ?? null,
      startedMs: Math.round(at - started),
      durationMs: Math.round(performance.now() - at),
      ok: fields.ok,
      error: fields.error ?? null,
    };
    result.steps.push(step);
    options.onStep?.(step);
    return step;
  };

  const outOfTime = (): string | null => {
    if (options.signal.aborted) throw options.signal.reason as Error;
    return sessionLimit.aborted ? `the session took longer than ${formatLimit(limits.sessionMs)}` : null;
  };

  /** Sends `command` (or nothing, for the banner) and reads one whole reply. */
  const exchange = async (
    connection: ProbeConnection,
    kind: SmtpStepKind,
    command: string | null,
    timeoutMs: number,
    expect: (code: number) => boolean,
  ): Promise<SmtpStep> => {
    const at = performance.now();
    if (command !== null) connection.write(`${command}\r\n`);
    const read = await connection.read((bytes) => {
      const reply = readServerReply(bytes);
      return reply.complete || reply.malformed;
    }, timeoutMs);
    const reply = readServerReply(read.bytes);
    const what = command === null ? 'banner' : `reply to ${command.split(' ')[0] ?? command}`;
    let error: string | null = null;
    if (reply.malformed)
      error = `not an SMTP reply: the ${command === null ? 'server greeted with' : 'server answered'} "${(reply.lines.find((line) => !/^\d{3}(?:[ -]|$)/.test(line)) ?? '').slice(0, 120)}"`;
    else if (!reply.complete) {
      error =
        outOfTime() ??
        (read.end === 'timeout'
          ? `no ${what} within ${formatLimit(timeoutMs)}`
          : read.end === 'cap'
            ? `the ${what} was longer than we read`
            : `connection closed ${command === null ? 'before a banner' : `after ${command.split(' ')[0] ?? command}`}`);
    } else if (reply.code !== null && !expect(reply.code))
      error = `the ${what} was ${reply.code}, not ${kind === 'quit' ? 221 : kind === 'starttls' || kind === 'banner' ? 220 : 250}`;
    return record(kind, at, {
      sent: command,
      reply: reply.lines,
      code: reply.complete ? reply.code : null,
      ok: error === null,
      error,
    });
  };

  const quit = async (connection: ProbeConnection): Promise<void> => {
    await exchange(connection, 'quit', 'QUIT', limits.replyMs, (code) => code === 221);
  };

  /** TLS on the connection: the handshake step and its details. */
  const startTls = async (connection: ProbeConnection, afterStarttls: boolean): Promise<ProbeConnection> => {
    const at = performance.now();
    try {
      const upgraded = await connection.secure({
        ...(servername === undefined ? {} : { servername }),
        timeoutMs: limits.handshakeMs,
      });
      result.tls = tlsDetails(upgraded.report);
      record('tls', at, { ok: true });
      return upgraded.connection;
    } catch (error) {
      const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
      const reason =
        outOfTime() ??
        (error instanceof NetError && error.code === 'TIMEOUT'
          ? `no TLS handshake within ${formatLimit(limits.handshakeMs)}`
          : (tlsHandshakeReason(cause ?? {}) ?? 'the handshake failed'));
      let stepError = reason;
      if (afterStarttls && /^the server closed the connection$/.test(reason))
        stepError = 'the server closed the connection after STARTTLS';
      else if (!afterStarttls && NOT_TLS_CODES.has(String(cause?.code))) {
        const greeting = await plainGreeting();
        if (greeting !== null)
          stepError = `the server answered in plain text ("${greeting}"), not TLS: port ${options.port} expects TLS from the first byte (RFC 8314 §3)`;
      }
      record('tls', at, { ok: false, error: stepError });
      throw new StepFailure(stepError);
    }
  };

  /** What a server that did not speak TLS sends first, read on a new connection: printable text, or null. */
  const plainGreeting = async (): Promise<string | null> => {
    let probe: ProbeConnection | undefined;
    try {
      probe = await net.probe.connect(target, { signal, limits: { connectTimeoutMs: limits.connectMs } });
      const read = await probe.read(
        (bytes) => bytes.includes(0x0a),
        Math.min(limits.bannerMs, PLAIN_GREETING_MS),
      );
      const line = new TextDecoder().decode(read.bytes).split(/\r?\n/)[0] ?? '';
      return /^[\x20-\x7e]+$/.test(line) ? line.slice(0, 120) : null;
    } catch {
      if (options.signal.aborted) throw options.signal.reason as Error;
      return null;
    } finally {
      probe?.close();
    }
  };

  const connectAt = performance.now();
  let connection: ProbeConnection;
  try {
    connection = await net.probe.connect(target, {
      signal,
      limits: { connectTimeoutMs: limits.connectMs },
    });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason as Error;
    record('connect', connectAt, { ok: false, error: (error as Error).message });
    return result;
  }
  result.address = connection.address;
  record('connect', connectAt, { ok: true });

  try {
    if (mode === 'implicit') connection = await startTls(connection, false);
    const banner = await exchange(connection, 'banner', null, limits.bannerMs, (code) => code === 220);
    if (!banner.ok) {
      // a 4xx or 554 greeting still waits for our QUIT (RFC 5321 §3.1, §4.2.1)
      if (banner.code !== null) await quit(connection);
      return result;
    }
    const ehlo = await exchange(
      connection,
      'ehlo',
      `EHLO ${options.clientName}`,
      limits.replyMs,
      (code) => code === 250,
    );
    if (!ehlo.ok) {
      if (ehlo.code !== null) await quit(connection);
      return result;
    }
    result.extensions = ehloKeywords(ehlo.reply);
    result.starttlsAdvertised = hasKeyword(result.extensions, 'STARTTLS');
    if (mode === 'starttls' && result.starttlsAdvertised) {
      const starttls = await exchange(
        connection,
        'starttls',
        'STARTTLS',
        limits.replyMs,
        (code) => code === 220,
      );
      if (!starttls.ok) {
        if (starttls.code !== null) await quit(connection);
        return result;
      }
      connection = await startTls(connection, true);
      // RFC 3207 §4.2: forget what the server said before TLS and ask again
      const again = await exchange(
        connection,
        'ehlo-tls',
        `EHLO ${options.clientName}`,
        limits.replyMs,
        (code) => code === 250,
      );
      if (!again.ok) {
        if (again.code !== null) await quit(connection);
        return result;
      }
      result.extensionsAfterTls = ehloKeywords(again.reply);
    }
    await quit(connection);
    result.completed = result.steps.every((step) => step.ok);
    return result;
  } catch (error) {
    if (error instanceof StepFailure) return result;
    throw error;
  } finally {
    connection.close();
  }
}
