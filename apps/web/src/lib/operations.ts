/**
 * Typed calls of the tools' operation tables (docs/architecture.md, "The operation contract"):
 * the path, method and body type come from the table, and the answer is checked against the
 * operation's result schema before a page sees it, so no response is ever cast unchecked.
 */
import type { OperationBody, OperationResult, ToolOperation } from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

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
