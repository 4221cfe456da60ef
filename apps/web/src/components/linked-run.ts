import { useEffect, useRef } from 'react';

/**
 * Sends a form's values once, when its tab opens with them taken from the address (`?domain=…`),
 * so that other tools can link to a result; `linked` false (nothing in the address) sends nothing.
 * The form's own checks apply as to typed input.
 */
export function useLinkedRun<Values>(values: Values, linked: boolean, send: (values: Values) => void): void {
  const ran = useRef(false);
  useEffect(() => {
    if (ran.current || !linked) return;
    ran.current = true;
    send(values);
  });
}
