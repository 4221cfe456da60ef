/**
 * Typed calls of the tools' operation tables (docs/architecture.md, "The operation contract"):
 * the path, method and body type come from the table, and the answer is checked against the
 * operation's result schema before a page sees it, so no response is ever cast unchecked.
 */
import type { OperationBody, OperationResult, ToolOperation } from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';

import { ApiError, api, UNEXPECTED_ERROR_MESSAGE, type ApiClient } from './api.ts';

/** Sends the operation's request and returns its checked result; a reply of another shape is BAD_RESPONSE. */
export async function callOperation<Op extends ToolOperation>(
  operation: Op,
  body: OperationBody<Op>,
  { client = api, signal }: { client?: ApiClient; signal?: AbortSignal } = {},
): Promise<OperationResult<Op>> {
  // a GET operation's body is its query string; a field left out is not sent
  const query =
    operation.method === 'GET'
      ? `?${new URLSearchParams(
          Object.entries(body as Record<string, unknown>)
            .filter(([, value]) => value !== undefined)
            .map(([key, value]) => [key, String(value)]),
        ).toString()}`
      : '';
  const data = await client.request<unknown>(`/v1${operation.path}${query}`, {
    method: operation.method,
    ...(operation.method === 'GET' ? {} : { body }),
    ...(signal === undefined ? {} : { signal }),
  });
  const checked = operation.result.safeParse(data);
  if (!checked.success) throw new ApiError(UNEXPECTED_ERROR_MESSAGE, 200, 'BAD_RESPONSE');
  return checked.data as OperationResult<Op>;
}

/** A TanStack mutation of one operation: `mutate(body)`, then `data`, `error`, `isPending`. */
export function useOperation<Op extends ToolOperation>(operation: Op) {
  return useMutation<OperationResult<Op>, Error, OperationBody<Op>>({
    mutationKey: [operation.tool, operation.id],
    mutationFn: (body) => callOperation(operation, body),
  });
}

type ProgressOf<Op extends ToolOperation> = Op['progress'] extends z.ZodType
  ? z.output<Op['progress']>
  : never;

/**
 * Calls an operation that reports progress as a stream (docs/architecture.md §3): each event,
 * checked against the operation's progress schema, goes to `onProgress`; the result is checked as
 * `callOperation` checks it. Events of another shape are skipped, as a progress bar can do without one.
 */
export async function callOperationWithProgress<Op extends ToolOperation>(
  operation: Op,
  body: OperationBody<Op>,
  onProgress: (event: ProgressOf<Op>) => void,
  { client = api, signal }: { client?: ApiClient; signal?: AbortSignal } = {},
): Promise<OperationResult<Op>> {
  const data = await client.stream<unknown>(
    `/v1${operation.path}`,
    body,
    (event) => {
      const checked = operation.progress?.safeParse(event);
      if (checked?.success) onProgress(checked.data as ProgressOf<Op>);
    },
    signal,
  );
  const checked = operation.result.safeParse(data);
  if (!checked.success) throw new ApiError(UNEXPECTED_ERROR_MESSAGE, 200, 'BAD_RESPONSE');
  return checked.data as OperationResult<Op>;
}

/**
 * `useOperation` for an operation that streams progress: the mutation, the latest event of the
 * running call, and all its events in order (for a log of steps; events arriving together are
 * rendered together, so the latest alone may skip some).
 */
export function useOperationWithProgress<Op extends ToolOperation>(operation: Op) {
  const [progress, setProgress] = useState<ProgressOf<Op> | null>(null);
  const [progressEvents, setProgressEvents] = useState<ProgressOf<Op>[]>([]);
  const mutation = useMutation<OperationResult<Op>, Error, OperationBody<Op>>({
    mutationKey: [operation.tool, operation.id],
    mutationFn: (body) => {
      setProgress(null);
      setProgressEvents([]);
      return callOperationWithProgress(operation, body, (event) => {
        setProgress(event);
        setProgressEvents((previous) => [...previous, event]);
      });
    },
  });
  return { ...mutation, progress, progressEvents };
}
