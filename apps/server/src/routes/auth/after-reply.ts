import type { FastifyInstance, FastifyReply } from 'fastify';
import type { MailMessage } from '../../mail/mailer.ts';

/**
 * Runs account work once the answer has gone out, so that how long the answer took says nothing
 * about the account (whether the address exists, whether mail was due). The work may send one
 * message; it is tracked by the mailer like any background send, failures logged.
 */
export function afterReply(
  app: FastifyInstance,
  reply: FastifyReply,
  work: () => Promise<MailMessage | undefined>,
): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // a macrotask later: the response's last bytes are written before any of the work begins
    setImmediate(() => app.mailer.sendInBackground(work));
  };
  reply.raw.once('finish', start);
  reply.raw.once('close', start);
}
