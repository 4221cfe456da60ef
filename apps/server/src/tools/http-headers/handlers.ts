import { gradeHeaderBlock, HttpHeadersGradeError, httpHeadersOperations } from '@rfckit/standards';
import { HttpError } from '../../plugins/errors.ts';
import { defineHandlers } from '../contract.ts';
import { analyseSite, analysisTarget } from './analyse.ts';

/**
 * HTTP security headers, graded with the MDN HTTP Observatory's scoring. The grader lives in
 * @rfckit/standards: `gradeResponse` for a site fetched here through the guarded outbound layer,
 * `gradeHeaderBlock` for pasted headers.
 */
export default defineHandlers(httpHeadersOperations, {
  analyze: (body, { app }) => analyseSite(app.net.session(), analysisTarget(body.url), app.hstsPreload),
  validate: (body) => {
    try {
      return gradeHeaderBlock(body.headers);
    } catch (error) {
      if (error instanceof HttpHeadersGradeError) throw new HttpError(422, error.code, error.message);
      throw error;
    }
  },
});
