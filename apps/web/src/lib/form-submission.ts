/** The submit-and-report cycle the account forms share: check, send, then one outcome to show. */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { ApiError } from './api.ts';

/** What the last submission came to, for the form's alert; null before one and while it runs. */
export type Outcome = { kind: 'done' | 'error'; message: string } | null;

type CheckResult = { success: boolean; error?: { issues: ReadonlyArray<{ message: string }> } };

/** The first message of a failed shared-schema check: the spec's texts, in the spec's order. */
export function firstIssue(result: CheckResult) {
  return result.success ? null : (result.error?.issues[0]?.message ?? null);
}

/** The server's own explanation of a failed call, else the form's fallback text. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

export interface FormSubmissionOptions<Body> {
  /** The form's values as of this render. */
  body: Body;
  /** A shared schema checked before anything is sent; its first issue becomes the error outcome. */
  schema?: { safeParse(body: NoInfer<Body>): CheckResult };
  /** Sends the body; resolves to the success text. */
  submit: (body: Body) => Promise<string>;
  /** The text of a failure that carries no explanation of its own. */
  fallbackError: string;
  /** Turns a failure into its text; `errorText` unless given. */
  describeError?: (error: unknown, fallback: string) => string;
  /** Awaited before the schema check: what the check needs loaded (the common-password list). */
  prepare?: () => Promise<void>;
}

/** Busy flag, outcome and the form's submit handler: check, send, report success or failure. */
export function useFormSubmission<Body>({
  body,
  schema,
  submit,
  fallbackError,
  describeError = errorText,
  prepare,
}: FormSubmissionOptions<Body>) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (prepare === undefined) {
      check();
      return;
    }
    setBusy(true);
    // a failed load leaves the check to say the list is not ready
    void prepare()
      .catch(() => undefined)
      .finally(() => {
        setBusy(false);
        check();
      });
  }

  function check() {
    const invalid = schema === undefined ? null : firstIssue(schema.safeParse(body));
    if (invalid !== null) {
      setOutcome({ kind: 'error', message: invalid });
      return;
    }
    // the form shows the outcome: send() settles every failure into it, so nothing awaits the promise
    void send();
  }

  async function send() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ kind: 'done', message: await submit(body) });
    } catch (error) {
      setOutcome({ kind: 'error', message: describeError(error, fallbackError) });
    } finally {
      setBusy(false);
    }
  }

  return { busy, outcome, onSubmit, clearOutcome: () => setOutcome(null) };
}

/** Goes to `path` `ms` milliseconds after `done` turns true (spec part 1 §9's redirects). */
export function useRedirectAfter(done: boolean, path: string, ms: number) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    // the declarative router navigates at once: its navigate returns nothing to wait for
    const timer = window.setTimeout(() => void navigate(path), ms);
    return () => window.clearTimeout(timer);
  }, [done, path, ms, navigate]);
}
