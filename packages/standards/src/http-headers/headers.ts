/** One response header field as received, in order; names keep their spelling. */
export interface HeaderField {
  name: string;
  value: string;
}

// Node's HTTP parser, which the Observatory reads headers through, keeps only the first of
// these when a response repeats them (the rest of its list never matters to the tests).
const firstValueOnly = new Set([
  'age',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'last-modified',
  'location',
  'retry-after',
  'server',
]);

/**
 * The fields of one response, looked up by case-insensitive name. `combined` joins a repeated
 * field with ", " as HTTP allows (RFC 9110 §5.3) and as the Observatory sees it, so that a
 * duplicated Strict-Transport-Security or X-Frame-Options is judged the way it judges it.
 */
export class HeaderList {
  readonly fields: readonly HeaderField[];
  readonly #byName = new Map<string, string[]>();

  constructor(fields: readonly HeaderField[]) {
    this.fields = fields;
    for (const field of fields) {
      const key = field.name.toLowerCase();
      const values = this.#byName.get(key);
      if (values) values.push(field.value);
      else this.#byName.set(key, [field.value]);
    }
  }

  has(name: string): boolean {
    return this.#byName.has(name.toLowerCase());
  }

  /** Every value of the field, one per line received (Set-Cookie needs them apart). */
  all(name: string): readonly string[] {
    return this.#byName.get(name.toLowerCase()) ?? [];
  }

  /** The field's value as one string, or null when absent. */
  combined(name: string): string | null {
    const key = name.toLowerCase();
    const values = this.#byName.get(key);
    if (!values) return null;
    return firstValueOnly.has(key) ? (values[0] ?? null) : values.join(', ');
  }

  /**
   * Header name to value for display and the API (`data.headers`): the first spelling of each
   * name; a repeated field joined with ", ", Set-Cookie lines with a newline.
   */
  toRecord(): Record<string, string> {
    const record: Record<string, string> = {};
    const spelling = new Map<string, string>();
    for (const field of this.fields) {
      const key = field.name.toLowerCase();
      if (!spelling.has(key)) spelling.set(key, field.name);
    }
    for (const [key, name] of spelling) {
      const values = this.#byName.get(key) ?? [];
      record[name] = key === 'set-cookie' ? values.join('\n') : values.join(', ');
    }
    return record;
  }
}

/** The media type of a Content-Type value, as the Observatory takes it: text before the first ";". */
export function mediaTypeOf(headers: HeaderList): string {
  return (headers.combined('content-type') ?? '').split(';')[0] ?? '';
}

/** The media types the Observatory treats as HTML. */
export const htmlMediaTypes: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);
