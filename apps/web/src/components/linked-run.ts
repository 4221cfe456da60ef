import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

interface LinkedRunOptions<Values extends Record<string, string>> {
  /** The tab's `?tab=` value, written beside the values. */
  tab: string;
  /** The form's values as the address gives them (`?domain=…`). */
  linked: Values;
  /** Whether the address gives any: without them nothing is sent. */
  fromAddress: boolean;
  /** Puts values into the form's fields. */
  fill: (values: Values) => void;
  /** Checks and sends values; false when a finding stopped them. */
  send: (values: Values) => boolean;
}

const keyOf = (values: Record<string, string>) => JSON.stringify(values);

/**
 * Ties a form to the address, so that a result can be shared and Back and Forward move between
 * results: values in the address (`?domain=…`, from a link, a reload or a history step) fill the
 * form and are sent, once each; the returned `run` sends typed values and, when they pass the
 * form's checks, writes them with the tab into the address as a new history entry.
 */
export function useLinkedRun<Values extends Record<string, string>>({
  tab,
  linked,
  fromAddress,
  fill,
  send,
}: LinkedRunOptions<Values>): (values: Values) => void {
  const [searchParams, setSearchParams] = useSearchParams();
  const shown = useRef<string | null>(null);
  const linkedKey = keyOf(linked);

  useEffect(() => {
    if (!fromAddress || shown.current === linkedKey) return;
    shown.current = linkedKey;
    fill(linked);
    send(linked);
  });

  return (values: Values) => {
    if (!send(values)) return;
    const trimmed = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value.trim()]));
    shown.current = keyOf(trimmed);
    const next = new URLSearchParams(searchParams);
    next.set('tab', tab);
    for (const [name, value] of Object.entries(trimmed)) next.set(name, value);
    if (next.toString() !== searchParams.toString()) setSearchParams(next);
  };
}
