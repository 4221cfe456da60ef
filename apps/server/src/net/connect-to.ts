import { parseAddress } from './address.ts';

/**
 * One OUTBOUND_CONNECT_TO rule, curl's `--connect-to HOST1:PORT1:HOST2:PORT2`: a request for
 * HOST1:PORT1 connects to HOST2:PORT2 instead, keeping the name for SNI and Host. An empty
 * HOST1 or PORT1 matches any. HOST2 must be an IP address (no lookup happens for it).
 */
export interface ConnectToRule {
  /** Lower-case name, or undefined for any host. */
  host: string | undefined;
  port: number | undefined;
  address: string;
  toPort: number;
}

const ENTRY = /^(\[[^\]]*\]|[^:[\]]*):(\d*):(\[[^\]]+\]|[^:[\]]+):(\d+)$/;

function port(text: string): number | undefined {
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? value : Number.NaN;
}

function unbracket(text: string): string {
  return text.startsWith('[') ? text.slice(1, -1) : text;
}

/**
 * Parses a comma-separated OUTBOUND_CONNECT_TO value. Throws an Error naming the first bad
 * entry. IPv6 addresses go in brackets: `www.example.test:443:[::1]:8443`.
 */
export function parseConnectTo(raw: string): ConnectToRule[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = ENTRY.exec(entry);
      const fromPort = match ? port(match[2] ?? '') : undefined;
      const toPort = match ? port(match[4] ?? '') : undefined;
      const address = match ? parseAddress(unbracket(match[3] ?? '')) : undefined;
      if (!match || Number.isNaN(fromPort) || toPort === undefined || Number.isNaN(toPort) || !address) {
        throw new Error(
          `"${entry}" is not host:port:address:port (e.g. www.example.test:443:127.0.0.1:8443; the target must be an IP address)`,
        );
      }
      const host = unbracket(match[1] ?? '').toLowerCase();
      return {
        host: host === '' ? undefined : host.replace(/\.$/, ''),
        port: fromPort,
        address: address.toString(),
        toPort,
      };
    });
}

/** The first rule for `host` (lower-case, IPv6 without brackets) and `port`, if any. */
export function findConnectTo(
  rules: readonly ConnectToRule[],
  host: string,
  port: number,
): ConnectToRule | undefined {
  return rules.find(
    (rule) =>
      (rule.host === undefined || rule.host === host) && (rule.port === undefined || rule.port === port),
  );
}
