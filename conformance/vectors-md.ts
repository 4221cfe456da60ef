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

function sections(markdown: string): { title: string; body: string }[] {
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
