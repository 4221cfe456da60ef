// Reads the DNSSEC key-tag and DS vectors out of vectors.md (sections 2-4), so the suite
// checks the published values themselves rather than copies of them.

export interface DsExpectation {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

export interface DnskeyVector {
  source: string;
  record: string;
  keyTag: number;
  ds: DsExpectation[];
}

const dsPattern = /\b(\d{1,5}) (\d{1,3}) ([124]) ([0-9A-Fa-f]{40,96})\b/g;

function dsIn(text: string): DsExpectation[] {
  return [...text.matchAll(dsPattern)].map((m) => ({
    keyTag: Number(m[1]),
    algorithm: Number(m[2]),
    digestType: Number(m[3]),
    digest: m[4]!.toUpperCase(),
  }));
}

export function sections(markdown: string): { title: string; body: string }[] {
  return markdown
    .split(/^## /m)
    .slice(1)
    .map((chunk) => {
      const newline = chunk.indexOf('\n');
      return { title: chunk.slice(0, newline).trim(), body: chunk.slice(newline + 1) };
    });
}

export function dnskeyVectors(markdown: string): DnskeyVector[] {
  const vectors: DnskeyVector[] = [];
  for (const { title, body } of sections(markdown)) {
    const tableRows = body
      .split('\n')
      .filter((line) => line.startsWith('|') && line.includes('`') && line.includes('DNSKEY'));
    if (tableRows.length > 0) {
      // one key per row: | source | `record` | key tag | `DS` |
      for (const row of tableRows) {
        const cells = row.split('|').map((c) => c.trim());
        const record = cells[2]?.replaceAll('`', '') ?? '';
        vectors.push({
          source: `${title}: ${cells[1]}`,
          record,
          keyTag: Number(cells[3]),
          ds: dsIn(cells[4] ?? ''),
        });
      }
      continue;
    }
    const blocks = [...body.matchAll(/```\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .filter((b) => b.includes('DNSKEY'));
    if (blocks.length === 0) continue;
    const tag = /key (?:tag|id)[^0-9]*?(\d{1,5})/i.exec(body);
    if (!tag) throw new Error(`vectors.md section "${title}" has a DNSKEY but no key tag`);
    const ds = dsIn(body);
    blocks.forEach((block, i) =>
      vectors.push({ source: `${title} (form ${i + 1})`, record: block.trim(), keyTag: Number(tag[1]), ds }),
    );
  }
  return vectors;
}

export interface TlsaExampleVector {
  source: string;
  /** The record as the RFC prints it, parentheses and line breaks included. */
  record: string;
  usage: number;
  selector: number;
  matchingType: number;
  /** Lower-case hex; null for the example the RFC itself truncates. */
  data: string | null;
}

/** The RFC 6698 §2.3 examples of section 5: each code block with the parse the text expects. */
export function tlsaExampleVectors(markdown: string): TlsaExampleVector[] {
  const section = sections(markdown).find(({ title }) => title.startsWith('5.'));
  if (!section) throw new Error('vectors.md has no section 5 (TLSA)');
  return section.body
    .split(/^Example /m)
    .slice(1)
    .map((example) => {
      const block = /```\n([\s\S]*?)```/.exec(example)?.[1];
      const fields = /usage (\d+),?\s+selector (\d+),?\s+(?:and )?matching(?:\s+type)? (\d+)/.exec(
        example
          .replaceAll('\n', ' ')
          .replace(/usage (\d+) \/ selector (\d+) \/ matching (\d+)/, 'usage $1, selector $2, matching $3'),
      );
      if (!block || !fields)
        throw new Error(`vectors.md TLSA example "${example.slice(0, 40)}" cannot be read`);
      const data = /data\s+`([0-9a-f]+)`/.exec(example.replaceAll('\n', ' '));
      return {
        source: `RFC 6698 §2.3 example ${example.slice(0, 1)}`,
        record: block.trim(),
        usage: Number(fields[1]),
        selector: Number(fields[2]),
        matchingType: Number(fields[3]),
        data: data ? data[1]! : null,
      };
    });
}

export interface DerivedTlsaVector {
  usage: number;
  selector: number;
  matchingType: number;
  data: string;
}

/** The table of section 6: TLSA parameters and the association data of derived-tlsa-cert.pem. */
export function derivedTlsaVectors(markdown: string): DerivedTlsaVector[] {
  const section = sections(markdown).find(({ title }) => title.startsWith('6.'));
  if (!section) throw new Error('vectors.md has no section 6 (derived TLSA)');
  return [...section.body.matchAll(/^\| (\d) (\d) (\d) \([^)]*\) \| `([0-9a-f]+)` \|$/gm)].map((m) => ({
    usage: Number(m[1]),
    selector: Number(m[2]),
    matchingType: Number(m[3]),
    data: m[4]!,
  }));
}
