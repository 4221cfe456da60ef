import type { Diagnostic, Span } from '../core/diagnostic.ts';
import { parseDnsName } from '../core/dns-name.ts';
import { tokenizeZoneText, type ZoneToken } from '../core/zone-tokenizer.ts';
import { tlsaProtocols, type TlsaProtocol } from './fields.ts';

/** The owner `_port._proto.host` split into its parts (RFC 6698 §3). */
export interface TlsaOwner {
  /** Lower-case absolute name with the trailing dot. */
  name: string;
  /** Null when the name is not of the `_port._proto.host` form (see the diagnostics). */
  port: number | null;
  protocol: TlsaProtocol | null;
  host: string | null;
}

/** A TLSA record as written, with where each field is in the input. */
export interface TlsaPresentation {
  owner: TlsaOwner | null;
  ttl: number | null;
  usage: number;
  selector: number;
  matchingType: number;
  data: Uint8Array;
  spans: { owner?: Span; usage: Span; selector: Span; matchingType: Span; data: Span };
}

export interface TlsaParseResult {
  /** Present when the four fields could be read. */
  record?: TlsaPresentation;
  diagnostics: Diagnostic[];
}

const example = "'_25._tcp.mail.example.com. IN TLSA 3 1 1 <64 hex digits>'";
const classes = new Set(['IN', 'CH', 'CHAOS', 'HS', 'HESIOD', 'CS']);
const maxTtl = 2 ** 31 - 1;
const otherTypes = new Set([
  'A',
  'AAAA',
  'CAA',
  'CNAME',
  'DNSKEY',
  'DS',
  'MX',
  'NS',
  'SMIMEA',
  'SSHFP',
  'TXT',
]);

const required: Diagnostic = {
  severity: 'error',
  code: 'TLSA_REQUIRED',
  message: 'TLSA record is required',
  rfc: 'RFC 6698 §2.2',
  fix: `Paste a TLSA record, e.g. ${example}, or just its fields '3 1 1 <hex>'.`,
};

const isTtl = (text: string) => /^\d+$/.test(text);
const isClass = (text: string) => classes.has(text.toUpperCase());

function fieldsProblem(token: ZoneToken, what: string): Diagnostic {
  return {
    severity: 'error',
    code: 'TLSA_FIELD_INVALID',
    message: `The ${what} '${token.text}' is not a number from 0 to 255`,
    requirement: 'MUST',
    rfc: 'RFC 6698 §2.2',
    fix: `Write the ${what} as a decimal number: the usual record is '3 1 1'.`,
    span: token.span,
  };
}

/** Splits the owner `_port._proto.host`; a name of another form is reported, not refused. */
function readOwner(token: ZoneToken, diagnostics: Diagnostic[]): TlsaOwner | null {
  const parsed = parseDnsName(token.text);
  if (!parsed.ok) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_OWNER_INVALID',
      message: `Owner name '${token.text}' is not a valid domain name: ${parsed.error}`,
      requirement: 'MUST',
      rfc: 'RFC 1035 §2.3.4',
      fix: 'Write the owner as _port._protocol.host, e.g. _25._tcp.mail.example.com.',
      span: token.span,
    });
    return null;
  }
  const name = parsed.name.text;
  const labels = name.slice(0, -1).split('.');
  const [portLabel = '', protocolLabel = '', ...hostLabels] = labels;
  const owner: TlsaOwner = { name, port: null, protocol: null, host: null };
  const portMatch = /^_(\d{1,5})$/.exec(portLabel);
  const port = portMatch ? Number(portMatch[1]) : NaN;
  const protocol = protocolLabel.startsWith('_') ? protocolLabel.slice(1) : '';
  if (!portMatch || port > 65_535 || hostLabels.length === 0 || !protocolLabel.startsWith('_')) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_OWNER_FORM',
      message: `Owner name '${name}' is not of the form _port._protocol.host: a client looking up the TLSA records of a service never asks for it`,
      requirement: 'MUST',
      rfc: 'RFC 6698 §3',
      fix: 'Publish the record at _<port>._<protocol>.<server name>, e.g. _25._tcp.mail.example.com for SMTP on mail.example.com.',
      span: token.span,
    });
    return owner;
  }
  if (!(tlsaProtocols as readonly string[]).includes(protocol)) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_OWNER_PROTOCOL',
      message: `Owner name '${name}' names the protocol '_${protocol}': TLSA records are for _tcp, _udp or _sctp`,
      requirement: 'MUST',
      rfc: 'RFC 6698 §3',
      fix: `Use _tcp for TLS over TCP (SMTP, HTTPS), e.g. _${port}._tcp.${hostLabels.join('.')}.`,
      span: token.span,
    });
    return { ...owner, port, host: `${hostLabels.join('.')}.` };
  }
  return { name, port, protocol: protocol as TlsaProtocol, host: `${hostLabels.join('.')}.` };
}

/**
 * Reads one pasted TLSA record: bare RDATA (`3 1 1 <hex>`) or a zone-file line
 * `[owner] [TTL] [class] TLSA usage selector matching-type data`, on one line or wrapped in
 * `( … )`, with the hex data split by blanks (RFC 6698 §2.2). Meaning is checked by `validateTlsa`.
 */
export function parseTlsa(text: string): TlsaParseResult {
  const diagnostics: Diagnostic[] = [];
  if (text.trim() === '') return { diagnostics: [required] };
  const tokenized = tokenizeZoneText(text);
  if (!tokenized.ok) {
    return {
      diagnostics: [
        {
          severity: 'error',
          code: 'TLSA_SYNTAX',
          message: `Zone-file syntax: ${tokenized.error}`,
          rfc: 'RFC 1035 §5.1',
          fix: 'Balance the parentheses and quotes, or paste the record on one line.',
          span: tokenized.span,
        },
      ],
    };
  }
  const [entry, second] = tokenized.entries;
  if (!entry) return { diagnostics: [required] };
  if (second) {
    return {
      diagnostics: [
        {
          severity: 'error',
          code: 'TLSA_MULTIPLE_RECORDS',
          message: `Found ${tokenized.entries.length} records; paste one TLSA record at a time`,
          fix: 'Keep only the TLSA line you want to check (wrap long data in ( ) to span lines).',
          span: second.span,
        },
      ],
    };
  }

  const tokens = entry.tokens;
  const typeIndex = tokens
    .slice(0, 4)
    .findIndex((token) => !token.quoted && token.text.toUpperCase() === 'TLSA');
  let rdata = tokens;
  let ownerToken: ZoneToken | undefined;
  let ttl: number | null = null;
  if (typeIndex < 0) {
    const first = tokens[0];
    if (first && !/^\d+$/.test(first.text)) {
      const other = tokens.slice(0, 4).find((token) => otherTypes.has(token.text.toUpperCase()));
      diagnostics.push(
        other
          ? {
              severity: 'error',
              code: 'TLSA_WRONG_TYPE',
              message: `This is a ${other.text.toUpperCase()} record, not a TLSA record`,
              fix: `Paste the TLSA record of the service, e.g. ${example}.`,
              span: other.span,
            }
          : {
              severity: 'error',
              code: 'TLSA_FORMAT',
              message: `Not a TLSA record: expected 'usage selector matching-type data' or a zone-file line such as ${example}`,
              rfc: 'RFC 6698 §2.2',
              fix: `Paste the record as 'dig TLSA _25._tcp.mail.example.com' prints it, e.g. ${example}.`,
              span: first.span,
            },
      );
      return { diagnostics };
    }
  } else {
    const prefix = tokens.slice(0, typeIndex);
    rdata = tokens.slice(typeIndex + 1);
    let rest = prefix;
    const head = prefix[0];
    if (head && (prefix.length === 3 || (!isTtl(head.text) && !isClass(head.text)))) {
      ownerToken = head;
      rest = prefix.slice(1);
    }
    let classSeen = false;
    for (const token of rest) {
      if (ttl === null && isTtl(token.text) && Number(token.text) <= maxTtl) ttl = Number(token.text);
      else if (!classSeen && isClass(token.text)) classSeen = true;
      else {
        diagnostics.push({
          severity: 'error',
          code: 'TLSA_FORMAT',
          message: `Unexpected '${token.text}' before TLSA: a zone-file line is [owner] [TTL] [class] TLSA usage selector matching-type data`,
          rfc: 'RFC 1035 §5.1',
          fix: `Write the line as ${example}.`,
          span: token.span,
        });
        return { diagnostics };
      }
    }
  }

  const owner = ownerToken ? readOwner(ownerToken, diagnostics) : null;
  const [usageToken, selectorToken, matchingToken, ...dataTokens] = rdata;
  const numbers: [ZoneToken | undefined, string][] = [
    [usageToken, 'certificate usage'],
    [selectorToken, 'selector'],
    [matchingToken, 'matching type'],
  ];
  for (const [token, what] of numbers) {
    if (token === undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'TLSA_FIELD_MISSING',
        message: `The ${what} is missing: a TLSA record has four fields, usage, selector, matching type and data`,
        requirement: 'MUST',
        rfc: 'RFC 6698 §2.2',
        fix: `Write all four fields, e.g. '3 1 1 <64 hex digits>'.`,
        span: entry.span,
      });
      return { diagnostics };
    }
    if (!/^\d{1,3}$/.test(token.text) || Number(token.text) > 255) {
      diagnostics.push(fieldsProblem(token, what));
      return { diagnostics };
    }
  }
  const first = dataTokens[0];
  const last = dataTokens.at(-1);
  if (!first || !last) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_DATA_MISSING',
      message: 'The certificate association data is missing',
      requirement: 'MUST',
      rfc: 'RFC 6698 §2.2',
      fix: 'Add the hex data after the three numbers; the generator computes it from your certificate.',
      span: entry.span,
    });
    return { diagnostics };
  }
  const dataSpan = { start: first.span.start, end: last.span.end };
  const hex = dataTokens.map((token) => token.text).join('');
  const bad = dataTokens.find((token) => !/^[0-9a-fA-F]*$/.test(token.text));
  if (bad) {
    const offset = bad.text.search(/[^0-9a-fA-F]/);
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_DATA_NOT_HEX',
      message: `The certificate association data must be hexadecimal; found '${bad.text.charAt(offset)}'`,
      requirement: 'MUST',
      rfc: 'RFC 6698 §2.2',
      fix: 'Paste the data as hex digits (0-9, a-f), as the generator writes it, not base64.',
      span: { start: bad.span.start + offset, end: bad.span.start + offset + 1 },
    });
    return { diagnostics };
  }
  if (hex.length % 2 !== 0) {
    diagnostics.push({
      severity: 'error',
      code: 'TLSA_DATA_ODD_LENGTH',
      message: `The certificate association data has ${hex.length} hex digits, an odd number: each octet is two digits`,
      requirement: 'MUST',
      rfc: 'RFC 6698 §2.2',
      fix: 'A digit was lost when copying: copy the whole data again.',
      span: dataSpan,
    });
    return { diagnostics };
  }
  const data = new Uint8Array(hex.length / 2);
  for (let i = 0; i < data.length; i++) data[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const record: TlsaPresentation = {
    owner,
    ttl,
    usage: Number(usageToken!.text),
    selector: Number(selectorToken!.text),
    matchingType: Number(matchingToken!.text),
    data,
    spans: {
      ...(ownerToken ? { owner: ownerToken.span } : {}),
      usage: usageToken!.span,
      selector: selectorToken!.span,
      matchingType: matchingToken!.span,
      data: dataSpan,
    },
  };
  return { record, diagnostics };
}
