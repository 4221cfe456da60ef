import type { KeyboardEvent, ReactNode } from 'react';

import { couldNotCheck, type CouldNotCheckAdvice } from '../lib/failure-message.ts';
import type { ResultPanelState } from './result-panel.tsx';

/** Records, keys and headers read best in the monospace font: Mantine `styles` for an input. */
export const monospaceInput = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** Ctrl+Enter (⌘+Enter) in a text area submits its form, as the tools' field descriptions say. */
export function submitOnCtrlEnter(event: KeyboardEvent<HTMLElement>): void {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.currentTarget.closest('form')?.requestSubmit();
  }
}

export interface RequestLike<T, V = unknown> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data: T | undefined;
  /** What was sent for the shown answer. */
  variables?: V | undefined;
  /** Sends a request (a TanStack mutation's): with `variables`, the panel offers to retry a check we could not make. */
  mutate?: ((variables: V) => void) | undefined;
}

export interface RequestPanelText<T, V = unknown> {
  /** Shown while the request runs. */
  pending: string;
  /** Shown before the first request. */
  empty: string;
  /** The message of a failed request; the error's own message by default. */
  errorMessage?: (error: Error) => string;
  /** The tool's own advice under a "we could not check" notice, by code. */
  couldNotCheckAdvice?: CouldNotCheckAdvice;
  /** Title, tone and content of an answer; `sent` is the request body it answers. */
  success: (
    data: T,
    sent: V | undefined,
  ) => { title: string; tone?: 'positive' | 'negative' | undefined; children: ReactNode };
}

/** The result panel of a tool's request: the prompt, the running note, the error or the answer. */
export function requestPanelState<T, V = unknown>(
  request: RequestLike<T, V>,
  text: RequestPanelText<T, V>,
): ResultPanelState {
  if (request.isPending) return { status: 'empty', prompt: text.pending };
  if (request.isError && request.error !== null) {
    const unchecked = couldNotCheck(request.error, text.errorMessage, text.couldNotCheckAdvice);
    if (unchecked !== null) {
      const { mutate, variables } = request;
      const onRetry = mutate && variables !== undefined ? () => mutate(variables) : undefined;
      return { status: 'unchecked', ...unchecked, onRetry };
    }
    return { status: 'error', message: text.errorMessage?.(request.error) ?? request.error.message };
  }
  if (request.data !== undefined)
    return { status: 'success', ...text.success(request.data, request.variables) };
  return { status: 'empty', prompt: text.empty };
}

/** What the page computed itself (a browser generator): its value, or why there is none. */
export type ComputedOutcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** The result panel of a value computed in the page, through the same states as a request's. */
export function computedPanelState<T>(
  outcome: ComputedOutcome<T>,
  success: RequestPanelText<T>['success'],
): ResultPanelState {
  const request = outcome.ok
    ? { isPending: false, isError: false, error: null, data: outcome.value }
    : { isPending: false, isError: true, error: new Error(outcome.message), data: undefined };
  return requestPanelState(request, { pending: '', empty: '', success });
}
