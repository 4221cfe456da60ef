import { Button, type ButtonProps } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

import { CheckIcon, CopyIcon } from './icons.tsx';

interface CopyButtonProps {
  /** The text put on the clipboard. */
  value: string;
  /** Visible label before copying, e.g. 'Copy DS record'. */
  label?: string;
  /** Accessible name when the visible label alone is ambiguous on the page. */
  ariaLabel?: string | undefined;
  /** How long 'Copied!' shows, in ms (spec: 2 s; security.txt 1.5 s). */
  timeout?: number;
  size?: ButtonProps['size'] | undefined;
  variant?: ButtonProps['variant'];
}

export function CopyButton({
  value,
  label = 'Copy',
  ariaLabel,
  timeout = 2000,
  size = 'xs',
  variant = 'default',
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch (error) {
      // spec: a failed copy is only logged
      console.error('Copy to clipboard failed', error);
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), timeout);
  }

  return (
    <Button
      type="button"
      size={size}
      variant={variant}
      onClick={() => void copy()}
      leftSection={copied ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
      aria-label={copied ? 'Copied!' : ariaLabel}
      aria-live="polite"
    >
      {copied ? 'Copied!' : label}
    </Button>
  );
}
