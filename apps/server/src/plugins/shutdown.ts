import fp from 'fastify-plugin';
import { HttpError, sendError } from './errors.ts';

export const SHUTTING_DOWN_MESSAGE = 'The server is shutting down. Please try again.';

/**
 * While the app closes, a request arriving on a connection that is still open is refused with
 * the error envelope and the usual headers, instead of Fastify's own 503 body (app.ts turns
 * `return503OnClosing` off for this). Registered after the security headers, so they are set.
 */
export default fp(
  async (app) => {
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    app.addHook('onRequest', (request, reply, done) => {
      if (!closing) {
        done();
        return;
      }
      // Fastify already asks for the connection to close while closing; a 503 sent from a hook ends the request
      sendError(new HttpError(503, 'SHUTTING_DOWN', SHUTTING_DOWN_MESSAGE), request, reply);
    });
  },
  { name: 'shutdown' },
);
