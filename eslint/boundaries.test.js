import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { violation } from './boundaries.js';

const root = path.resolve(import.meta.dirname, '..');
const at = (p) => path.join(root, p);

describe('import boundaries', () => {
  const crossing = [
    ['packages/standards/src/spf/parse.ts', '../dmarc/parse.ts', /sibling tool "dmarc"/],
    ['packages/standards/src/newtool/parse.ts', '../dnskey/index.ts', /sibling tool "dnskey"/],
    ['packages/standards/src/dnskey/parse.ts', 'node:crypto', /pure/],
    ['packages/standards/src/dnskey/parse.ts', 'react', /pure/],
    ['packages/standards/src/core/base64.ts', '../dnskey/parse.ts', /core/],
    ['packages/standards/src/index.ts', '../../../apps/server/src/app.ts', /outside/],
    ['apps/server/src/app.ts', '../../web/src/app/router.tsx', /HTTP/],
    ['apps/web/src/app/router.tsx', '../../../server/src/app.ts', /HTTP/],
    ['apps/web/src/components/tool-page.tsx', '../tools/dnskey/page.tsx', /meet only in app/],
    ['apps/web/src/lib/api.ts', '../features/welcome/page.tsx', /meet only in app/],
    ['apps/web/src/tools/spf/page.tsx', '../dnskey/page.tsx', /sibling tool "dnskey"/],
    ['apps/web/src/tools/spf/page.tsx', '../../features/welcome/page.tsx', /tools may not import features/],
    [
      'apps/web/src/features/welcome/page.tsx',
      '../../tools/dnskey/page.tsx',
      /features may not import tools/,
    ],
    ['apps/web/src/components/copy-button.tsx', '../app/layout.tsx', /only app/],
    ['apps/web/src/lib/api.ts', 'node:fs', /browser/],
    ['apps/server/src/net/dns.ts', '@rfckit/testlab', /tests and benchmarks only/],
    ['apps/web/src/tools/spf/page.tsx', '@rfckit/testlab', /tests and benchmarks only/],
    ['packages/standards/src/spf/parse.ts', '@rfckit/testlab', /no other workspace/],
  ];
  it.each(crossing)('%s may not import %s', (file, spec, why) => {
    expect(violation(at(file), spec)).toMatch(why);
  });

  const allowed = [
    ['packages/standards/src/dnskey/parse.ts', '../core/base64.ts'],
    ['packages/standards/src/dnskey/schema.ts', 'zod'],
    ['packages/standards/src/index.ts', './dnskey/index.ts'],
    ['apps/server/src/routes/tools/dnskey.ts', '@rfckit/standards'],
    ['apps/server/src/app.ts', 'node:path'],
    ['apps/server/test/net.test.ts', '@rfckit/testlab'],
    ['apps/server/src/net/dns.test.ts', '@rfckit/testlab'],
    ['apps/web/src/app/tool-pages.ts', '../tools/dnskey/page.tsx'],
    ['apps/web/src/tools/dnskey/page.tsx', '../../components/tool-page.tsx'],
    ['apps/web/src/tools/dnskey/validator.tsx', './result.tsx'],
    ['apps/web/src/main.tsx', './app/app.tsx'],
    ['apps/web/vite.config.ts', 'node:path'],
  ];
  it.each(allowed)('%s may import %s', (file, spec) => {
    expect(violation(at(file), spec)).toBeNull();
  });
});
