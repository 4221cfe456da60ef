import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { violation } from './boundaries.js';

const root = path.resolve(import.meta.dirname, '..');
const at = (p) => path.join(root, p);

describe('import boundaries', () => {
  const crossing = [
    ['packages/standards/src/spf/parse.ts', '../dmarc/parse.ts', /sibling tool "dmarc"/],
    ['packages/standards/src/dkim/parse.ts', '../dnskey/index.ts', /sibling tool "dnskey"/],
    // a folder without an operation table is shared knowledge: tools build on it, never it on them
    [
      'packages/standards/src/dnssec/chain.ts',
      '../dnskey/index.ts',
      /shared standard "dnssec" may not import tool "dnskey"/,
    ],
    ['packages/standards/src/core/resolver.ts', '../dnssec/verify.ts', /core\/ may not depend on "dnssec"/],
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
    // a package reaches another only by its name
    [
      'apps/web/src/lib/api.ts',
      '../../../../packages/standards/src/core/schema.ts',
      /apps\/web may not reach into packages\/standards/,
    ],
    [
      'apps/server/test/http-headers-analyze.test.ts',
      '../../../packages/standards/src/http-headers/expectation-vectors.ts',
      /apps\/server may not reach into packages\/standards/,
    ],
    ['packages/testlab/src/web-server.ts', '../../../apps/server/src/net/dns.ts', /reach into apps\/server/],
    // standards ships to browsers: npm packages only from its own dependencies
    [
      'packages/standards/src/spf/parse.ts',
      'lodash',
      /only its dependencies \([^)]*\bzod\b[^)]*\): not "lodash"/,
    ],
    ['packages/standards/src/core/schema.ts', 'vitest', /only its dependencies/],
    ['packages/standards/src/newtool/parse.ts', '@scope/helper/sub', /not "@scope\/helper\/sub"/],
    // server layering: routes build on db/ and plugins/
    ['apps/server/src/db/users.ts', '../routes/auth/profile-routes.ts', /db\/ may not import routes\//],
    ['apps/server/src/db/migrations/0001.ts', '../../routes/tools.ts', /db\/ may not import routes\//],
    ['apps/server/src/plugins/errors.ts', '../routes/auth/index.ts', /plugins\/ may not import routes\//],
    // server tool folders share through tools/*.ts or another src/ folder
    ['apps/server/src/tools/spf/handlers.ts', '../dmarc/handlers.ts', /sibling tool "dmarc"/],
    ['apps/server/src/tools/newtool/handlers.ts', '../arc/validate.ts', /sibling tool "arc"/],
  ];
  it.each(crossing)('%s may not import %s', (file, spec, why) => {
    expect(violation(at(file), spec)).toMatch(why);
  });

  const allowed = [
    ['packages/standards/src/dnskey/parse.ts', '../core/base64.ts'],
    ['packages/standards/src/dnskey/schema.ts', 'zod'],
    ['packages/standards/src/dnskey/validate.ts', '../dnssec/key-tag.ts'],
    ['packages/standards/src/dane/check.ts', '../dnssec/index.ts'],
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
    // root tooling may use the server's sources directly; a package's own files are its own
    ['bench/activity.ts', '../apps/server/src/app.ts'],
    ['e2e/serve.ts', '../apps/server/src/config.ts'],
    [
      'conformance/suites/http-headers.test.ts',
      '../../packages/standards/src/http-headers/expectation-vectors.ts',
    ],
    ['apps/server/test/http-headers-analyze.test.ts', '../src/tools/http-headers/analyse.ts'],
    ['apps/server/test/http-headers-analyze.test.ts', '@rfckit/standards/http-headers/expectation-vectors'],
    ['packages/standards/src/core/schema.ts', 'zod'],
    ['packages/standards/src/core/schema.ts', 'zod/v4/core'],
    ['packages/standards/src/http-headers/parse.ts', 'htmlparser2'],
    ['packages/standards/src/core/domain.ts', 'tldts'],
    ['packages/standards/src/spf/parse.test.ts', 'vitest'],
    ['apps/server/src/routes/auth/profile-routes.ts', '../../db/users.ts'],
    ['apps/server/src/routes/tools.ts', '../plugins/errors.ts'],
    ['apps/server/src/db/users.ts', '../plugins/errors.ts'],
    ['apps/server/src/tools/spf/handlers.ts', '../contract.ts'],
    ['apps/server/src/tools/arc/seal.ts', './validate.ts'],
    ['apps/server/src/tools/dkim/verify-message.ts', '../../mailauth/index.ts'],
    ['apps/server/src/routes/tools.ts', '../tools/dkim/handlers.ts'],
  ];
  it.each(allowed)('%s may import %s', (file, spec) => {
    expect(violation(at(file), spec)).toBeNull();
  });
});
