// Benchmark (not a test): the HTTP headers Analyser's own work once the site has been fetched —
// turning the two visits into the grader's input (headers, body decoding, certificate state) and
// grading them with the MDN HTTP Observatory’s twelve tests. The responses are built to look like
// a large real-world front page: about 175 KB of HTML with 100 scripts, a 9 KB CSP, eight cookies and
// a redirect chain that sets one more. No network: the fetch itself is the lab tests' business.
// Run alone with `node bench/http-headers.ts`; `bench/run.ts` runs it with the rest.
import { gradeResponse } from '@rfckit/standards';
import type { FetchResult, TlsReport } from '../apps/server/src/net/http.ts';
import { fetchedVisit, PREFLIGHT_ORIGIN } from '../apps/server/src/tools/http-headers/analyse.ts';

const RUNS = Number(process.env.BENCH_HTTP_HEADERS_RUNS ?? 1000);
const WARM_UP = 100;
const PAGES = 20;
const TARGET_MEDIAN_MS = 5;

export interface HttpHeadersBenchResult {
  name: string;
  runs: number;
  /** Median time of one analysis, milliseconds. */
  value: number;
  unit: 'ms';
  target: number;
  met: boolean;
  p95Ms: number;
  maxMs: number;
  page: { bytes: number; scripts: number; cspBytes: number; cookies: number; headerLines: number };
  /** What the page gets, the same every run. */
  graded: { score: number; grade: string };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

const tls: TlsReport = {
  protocol: 'TLSv1.3',
  cipher: { name: 'TLS_AES_128_GCM_SHA256', standardName: 'TLS_AES_128_GCM_SHA256', version: 'TLSv1.3' },
  alpnProtocol: 'http/1.1',
  servername: 'www.example.org',
  verified: true,
  hostnameMatches: true,
  certificates: [],
};

const timing = { dnsMs: 1, connectMs: 5, firstByteMs: 20, totalMs: 40 };

/** A long policy of the kind big sites send: many hosts per directive, nonces, hashes, reporting. */
function contentSecurityPolicy(variant: number): string {
  const hosts = Array.from(
    { length: 40 },
    (_, i) => `https://cdn${i}.static-assets${variant % 3}.example.net`,
  ).join(' ');
  const hashes = Array.from(
    { length: 12 },
    (_, i) => `'sha256-${Buffer.alloc(32, i + variant).toString('base64')}'`,
  ).join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${Buffer.alloc(16, variant).toString('base64')}' ${hashes} ${hosts} https://www.googletagmanager.com`,
    `style-src 'self' 'unsafe-inline' ${hosts}`,
    `img-src 'self' data: blob: ${hosts} https://*.ytimg.com`,
    `font-src 'self' ${hosts}`,
    `connect-src 'self' https://api.example.org wss://live.example.org ${hosts}`,
    "frame-src 'self' https://www.youtube-nocookie.com",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    'upgrade-insecure-requests',
    'report-uri https://csp.example.org/report',
    'report-to csp-endpoint',
  ].join('; ');
}

/** About 175 KB of markup: navigation, articles, inline and external scripts (some with integrity). */
function frontPage(variant: number): { html: string; scripts: number } {
  const parts: string[] = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example News</title>',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="strict-origin-when-cross-origin">',
    '<link rel="stylesheet" href="/assets/main.css">',
  ];
  let scripts = 0;
  for (let i = 0; i < 30; i++) {
    parts.push(`<script src="/assets/chunk-${variant}-${i}.js" defer></script>`);
    scripts++;
  }
  for (let i = 0; i < 30; i++) {
    parts.push(
      `<script src="https://cdn${i % 40}.static-assets${variant % 3}.example.net/lib/v${i}/bundle.min.js" ` +
        `integrity="sha384-${Buffer.alloc(48, i).toString('base64')}" crossorigin="anonymous"></script>`,
    );
    scripts++;
  }
  for (let i = 0; i < 10; i++) {
    parts.push(`<script src="https://widgets.partner${i}.example.com/embed.js" async></script>`);
    scripts++;
  }
  parts.push('</head><body><header><nav><ul>');
  for (let i = 0; i < 200; i++) parts.push(`<li><a href="/section/${i}">Section ${i}</a></li>`);
  parts.push('</ul></nav></header><main>');
  for (let i = 0; i < 400; i++) {
    parts.push(
      `<article class="card" data-id="${variant}-${i}"><h2><a href="/story/${i}">Story ${i}: ` +
        'a headline long enough to wrap on a phone</a></h2><p>' +
        'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut ' +
        'labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation.' +
        `</p><img src="/img/${i}.webp" alt="Picture ${i}" loading="lazy" width="320" height="180"></article>`,
    );
    if (i % 20 === 0) {
      parts.push(`<script>window.__slot${i}=${JSON.stringify({ id: i, variant })};</script>`);
      scripts++;
    }
  }
  parts.push('</main><footer>© Example</footer>');
  for (let i = 0; i < 10; i++) {
    parts.push(`<script src="/assets/late-${i}.js"></script>`);
    scripts++;
  }
  parts.push('</body></html>');
  return { html: parts.join('\n'), scripts };
}

const cookies = [
  '__Host-session=3f9a0c; Path=/; Secure; HttpOnly; SameSite=Lax',
  'csrftoken=b81e77; Path=/; Secure; SameSite=Strict',
  'consent=necessary; Path=/; Max-Age=31536000; Secure; SameSite=Lax',
  'theme=dark; Path=/; Max-Age=31536000; Secure; SameSite=Lax',
  'ab_bucket=7; Path=/; Domain=example.org; Secure; SameSite=Lax',
  'locale=en-GB; Path=/; Secure; SameSite=Lax',
  '_ga=GA1.2.1234567890.1700000000; Path=/; Domain=example.org; Max-Age=63072000; Secure; SameSite=Lax',
  'recently_viewed=12%2C44%2C91; Path=/; Secure; SameSite=Lax',
];

function fetched(variant: number): {
  https: FetchResult;
  http: FetchResult;
  preflight: [string, string][];
  stats: HttpHeadersBenchResult['page'];
} {
  const { html, scripts } = frontPage(variant);
  const body = Buffer.from(html, 'utf8');
  const csp = contentSecurityPolicy(variant);
  const headers: [string, string][] = [
    ['Date', 'Mon, 23 Nov 2026 10:00:00 GMT'],
    ['Content-Type', 'text/html; charset=utf-8'],
    ['Content-Length', String(body.length)],
    ['Server', 'nginx'],
    ['Cache-Control', 'private, max-age=0, must-revalidate'],
    ['Vary', 'Accept-Encoding, Cookie'],
    ['Content-Security-Policy', csp],
    ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains; preload'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'SAMEORIGIN'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    [
      'Permissions-Policy',
      'camera=(), microphone=(), geolocation=(self), payment=(), usb=(), interest-cohort=()',
    ],
    ['Cross-Origin-Opener-Policy', 'same-origin-allow-popups'],
    ['Cross-Origin-Resource-Policy', 'same-site'],
    [
      'Report-To',
      '{"group":"csp-endpoint","max_age":10886400,"endpoints":[{"url":"https://csp.example.org/r"}]}',
    ],
    ['NEL', '{"report_to":"csp-endpoint","max_age":31536000}'],
    ['Alt-Svc', 'h3=":443"; ma=86400'],
    ['X-Request-Id', `req-${variant}-5f2c`],
    ...cookies.map((cookie): [string, string] => ['Set-Cookie', cookie]),
  ];
  const hop = (url: string, status: number, location: string, extra: [string, string][] = []) => ({
    url,
    status,
    location,
    headers: [['Location', location], ['Content-Length', '0'], ...extra] as [string, string][],
    address: '192.0.2.10',
    port: url.startsWith('https:') ? 443 : 80,
    ...(url.startsWith('https:') ? { tls } : {}),
    timing,
  });
  const final = {
    url: 'https://www.example.org/en/',
    status: 200,
    statusText: 'OK',
    headers,
    body,
    address: '192.0.2.10',
    port: 443,
    tls,
    timing: { ...timing, overallMs: 120 },
  };
  return {
    https: {
      ...final,
      redirects: [
        hop('https://www.example.org/', 302, '/en/', [
          ['Set-Cookie', 'geo=GB; Path=/; Secure; SameSite=Lax'],
        ]),
      ],
    },
    http: {
      ...final,
      redirects: [
        hop('http://www.example.org/', 301, 'https://www.example.org/'),
        hop('https://www.example.org/', 302, '/en/', [
          ['Set-Cookie', 'geo=GB; Path=/; Secure; SameSite=Lax'],
        ]),
      ],
    },
    preflight: [
      ['Allow', 'GET, HEAD, OPTIONS'],
      ['Vary', 'Origin'],
    ],
    stats: {
      bytes: body.length,
      scripts,
      cspBytes: csp.length,
      cookies: cookies.length + 1,
      headerLines: headers.length,
    },
  };
}

export async function httpHeadersBench(): Promise<HttpHeadersBenchResult> {
  const inputs = Array.from({ length: PAGES }, (_, i) => fetched(i));
  const analyse = (n: number): { score: number; grade: string } => {
    const input = inputs[n % inputs.length]!;
    const analysis = gradeResponse({
      site: 'www.example.org',
      https: fetchedVisit(input.https),
      http: fetchedVisit(input.http),
      cors: {
        origin: PREFLIGHT_ORIGIN,
        headers: input.preflight.map(([name, value]) => ({ name, value })),
      },
    });
    return { score: analysis.score, grade: analysis.grade };
  };
  const expected = analyse(0);
  for (let i = 1; i < WARM_UP; i++) analyse(i);
  const durations: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const began = performance.now();
    const { score } = analyse(i);
    durations.push(performance.now() - began);
    if (score !== expected.score) throw new Error(`page ${i % PAGES} scored ${score}, not ${expected.score}`);
  }
  durations.sort((a, b) => a - b);
  const median = Number(percentile(durations, 50).toFixed(2));
  return {
    name: 'HTTP headers Analyser: its own work on a fetched large front page (input building and grading)',
    runs: RUNS,
    value: median,
    unit: 'ms',
    target: TARGET_MEDIAN_MS,
    met: median < TARGET_MEDIAN_MS,
    p95Ms: Number(percentile(durations, 95).toFixed(2)),
    maxMs: Number((durations.at(-1) ?? 0).toFixed(2)),
    page: inputs[0]!.stats,
    graded: expected,
  };
}

export function describeHttpHeadersBench(result: HttpHeadersBenchResult): string {
  const { page } = result;
  return (
    `HTTP headers Analyser: median ${result.value} ms, p95 ${result.p95Ms} ms per analysis over ${result.runs} runs ` +
    `(${Math.round(page.bytes / 1024)} KB page, ${page.scripts} scripts, ${page.cspBytes} B CSP, ` +
    `${page.cookies} cookies, graded ${result.graded.grade} ${result.graded.score}; target median < ${result.target} ms)`
  );
}

if (import.meta.main) {
  const result = await httpHeadersBench();
  console.log(describeHttpHeadersBench(result));
  if (!result.met) process.exitCode = 1;
}
