/**
 * The one result shape of a generator or lookup that can refuse its input: the result, or a
 * message saying what to change (the server answers it as a 400 or 422). Validators never refuse:
 * they return a `ValidationResult` whose diagnostics say what is wrong.
 */
export type Outcome<Result, Failure extends object = object> =
  { ok: true; result: Result } | ({ ok: false; error: string } & Failure);
