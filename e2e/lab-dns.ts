// Publishing records in the e2e lab DNS while it runs, as a user publishes at their DNS host.
// e2e/serve.ts runs the lab DNS server in its own process, so it also opens a small control
// endpoint on loopback and leaves its URL in the e2e data dir; a spec's publishTxt() asks it to
// set a TXT record, which the lab DNS answers from then on. Only names under publishedZone can be
// set, so a spec cannot overwrite the fixtures of e2e/lab-sites.ts.
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { normalizeName, type LabDnsServer } from '@rfckit/testlab';
import { e2eDataDir } from './paths.ts';

/** The lab zone specs publish in; a run's names must be unique within it (a random selector). */
export const publishedZone = 'published.example.test';

const controlFileName = 'lab-dns-control.json';
// a DKIM record of a 4096-bit RSA key is under 1 KiB
const MAX_VALUE_BYTES = 4096;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_VALUE_BYTES) reject(new Error(`a TXT value is at most ${MAX_VALUE_BYTES} bytes here`));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * Serves `PUT /txt/<name>` (the body is the TXT value) for `dns` on 127.0.0.1 and writes the
 * endpoint's URL to `dataDir`, where publishTxt() finds it. Called by e2e/serve.ts.
 */
export async function servePublishing(dns: LabDnsServer, dataDir: string): Promise<void> {
  const control = createServer((request, response) => {
    const match = /^\/txt\/([^/?]+)$/.exec(request.url ?? '');
    if (request.method !== 'PUT' || match === null) {
      response.writeHead(404).end();
      return;
    }
    readBody(request).then(
      (value) => {
        let name: string;
        try {
          name = normalizeName(decodeURIComponent(match[1]!));
        } catch (error) {
          response.writeHead(400).end(String(error));
          return;
        }
        if (!name.endsWith(`.${publishedZone}`)) {
          response.writeHead(403).end(`only names under ${publishedZone} can be published`);
          return;
        }
        dns.update(name, { TXT: value, ttl: 60 });
        response.writeHead(204).end();
      },
      (error: unknown) => response.writeHead(413).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  await writeFile(path.join(dataDir, controlFileName), JSON.stringify({ url }));
}

/** Publishes one TXT record (replacing any earlier one) at `name` in the running e2e lab DNS. */
export async function publishTxt(name: string, value: string): Promise<void> {
  const { url } = JSON.parse(await readFile(path.join(e2eDataDir, controlFileName), 'utf8')) as {
    url: string;
  };
  const response = await fetch(`${url}/txt/${encodeURIComponent(name)}`, { method: 'PUT', body: value });
  if (response.status !== 204) {
    throw new Error(`publishing ${name} failed: ${response.status} ${await response.text()}`);
  }
}
