// Messages are built from parts that may or may not end their own sentence (a chain failure, a
// TLS error): each part is closed exactly once, so joins never give '..' nor a missing stop.

/** `text` trimmed and ended with one full stop, unless it already ends a sentence ('.', '!', '?', '…'). */
export function endSentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The parts as consecutive sentences, each ended once; empty or absent parts are left out. */
export function sentences(...parts: (string | null | undefined | false)[]): string {
  return parts
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map(endSentence)
    .join(' ');
}

/** `count` and the noun, singular for one: '1 usable TLSA record', '2 usable TLSA records'. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
