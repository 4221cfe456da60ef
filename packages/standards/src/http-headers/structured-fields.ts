// Structured Field Values for HTTP (RFC 9651, formerly RFC 8941): the dictionary form, which
// Permissions-Policy uses. Parsing follows §4.2 step by step; any error fails the whole field.

export type BareItem =
  | { type: 'token'; value: string }
  | { type: 'string'; value: string }
  | { type: 'integer' | 'decimal'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'bytes'; value: string };

export interface Item {
  item: BareItem;
  params: Map<string, BareItem>;
}

export interface InnerList {
  list: Item[];
  params: Map<string, BareItem>;
}

export type DictionaryMember = Item | InnerList;

export class StructuredFieldError extends Error {
  override readonly name = 'StructuredFieldError';
}

const keyStart = /[a-z*]/;
const keyChar = /[a-z0-9_\-.*]/;
const tokenStart = /[A-Za-z*]/;
// tchar plus ":" and "/" (RFC 9651 §3.3.4)
const tokenChar = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const base64Char = /[A-Za-z0-9+/=]/;

class Reader {
  readonly text: string;
  pos = 0;

  constructor(text: string) {
    this.text = text;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  done(): boolean {
    return this.pos >= this.text.length;
  }

  fail(what: string): never {
    throw new StructuredFieldError(`${what} at character ${this.pos + 1}`);
  }

  skipSpaces(): void {
    while (this.peek() === ' ') this.pos++;
  }

  skipOws(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }
}

function parseKey(r: Reader): string {
  if (!keyStart.test(r.peek())) r.fail('Expected a key (lower-case letter or "*")');
  const start = r.pos;
  while (!r.done() && keyChar.test(r.peek())) r.pos++;
  return r.text.slice(start, r.pos);
}

function parseNumber(r: Reader): BareItem {
  const start = r.pos;
  if (r.peek() === '-') r.pos++;
  if (!/[0-9]/.test(r.peek())) r.fail('Expected a digit');
  let decimal = false;
  while (!r.done()) {
    const c = r.peek();
    if (/[0-9]/.test(c)) r.pos++;
    else if (c === '.' && !decimal) {
      decimal = true;
      r.pos++;
    } else break;
  }
  const text = r.text.slice(start, r.pos);
  const digits = text.replace(/^-/, '');
  if (decimal) {
    const [whole = '', fraction = ''] = digits.split('.');
    if (whole.length > 12 || fraction.length === 0 || fraction.length > 3) r.fail('Invalid decimal');
    return { type: 'decimal', value: Number(text) };
  }
  if (digits.length > 15) r.fail('Integer too long');
  return { type: 'integer', value: Number(text) };
}

function parseString(r: Reader): BareItem {
  r.pos++; // opening quote
  let value = '';
  for (;;) {
    if (r.done()) r.fail('Unterminated string');
    const c = r.peek();
    r.pos++;
    if (c === '\\') {
      const next = r.peek();
      if (next !== '"' && next !== '\\') r.fail('Invalid escape in string');
      value += next;
      r.pos++;
    } else if (c === '"') {
      return { type: 'string', value };
    } else {
      const code = c.charCodeAt(0);
      if (code < 0x20 || code > 0x7e) r.fail('Invalid character in string');
      value += c;
    }
  }
}

function parseBareItem(r: Reader): BareItem {
  const c = r.peek();
  if (c === '-' || /[0-9]/.test(c)) return parseNumber(r);
  if (c === '"') return parseString(r);
  if (tokenStart.test(c)) {
    const start = r.pos;
    r.pos++;
    while (!r.done() && tokenChar.test(r.peek())) r.pos++;
    return { type: 'token', value: r.text.slice(start, r.pos) };
  }
  if (c === ':') {
    r.pos++;
    const start = r.pos;
    while (!r.done() && base64Char.test(r.peek())) r.pos++;
    if (r.peek() !== ':') r.fail('Unterminated byte sequence');
    const value = r.text.slice(start, r.pos);
    r.pos++;
    return { type: 'bytes', value };
  }
  if (c === '?') {
    r.pos++;
    const b = r.peek();
    if (b !== '0' && b !== '1') r.fail('Invalid boolean');
    r.pos++;
    return { type: 'boolean', value: b === '1' };
  }
  return r.fail(c === '' ? 'Missing value' : `Unexpected "${c}"`);
}

function parseParams(r: Reader): Map<string, BareItem> {
  const params = new Map<string, BareItem>();
  while (r.peek() === ';') {
    r.pos++;
    r.skipSpaces();
    const key = parseKey(r);
    let value: BareItem = { type: 'boolean', value: true };
    if (r.peek() === '=') {
      r.pos++;
      value = parseBareItem(r);
    }
    params.set(key, value);
  }
  return params;
}

function parseItemOrInnerList(r: Reader): DictionaryMember {
  if (r.peek() !== '(') {
    const item = parseBareItem(r);
    return { item, params: parseParams(r) };
  }
  r.pos++;
  const list: Item[] = [];
  for (;;) {
    r.skipSpaces();
    if (r.peek() === ')') {
      r.pos++;
      return { list, params: parseParams(r) };
    }
    const item = parseBareItem(r);
    list.push({ item, params: parseParams(r) });
    const next = r.peek();
    if (next !== ' ' && next !== ')') r.fail('Expected a space or ")" in an inner list');
  }
}

/** Parses a dictionary field value (RFC 9651 §4.2.2); a repeated key keeps its last value. */
export function parseDictionary(text: string): Map<string, DictionaryMember> {
  const r = new Reader(text);
  const dictionary = new Map<string, DictionaryMember>();
  r.skipSpaces();
  while (!r.done()) {
    const key = parseKey(r);
    let member: DictionaryMember;
    if (r.peek() === '=') {
      r.pos++;
      member = parseItemOrInnerList(r);
    } else {
      member = { item: { type: 'boolean', value: true }, params: parseParams(r) };
    }
    dictionary.set(key, member);
    r.skipOws();
    if (r.done()) break;
    if (r.peek() !== ',') r.fail('Expected "," between members');
    r.pos++;
    r.skipOws();
    if (r.done()) r.fail('Trailing comma');
  }
  return dictionary;
}
