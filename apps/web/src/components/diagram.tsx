import { Alert, Box, Center, Loader, Paper, Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useId, useState } from 'react';

interface DiagramProps {
  /** Mermaid source. Ours, never user input. */
  definition: string;
  /** Text alternative: what the diagram shows, read by screen readers. */
  label: string;
  /** Visible caption under the diagram. */
  caption?: string;
}

type DiagramState = { status: 'loading' } | { status: 'ready'; svg: string } | { status: 'error' };

let renderCount = 0;

/** Draws a mermaid diagram. mermaid is loaded only when a diagram mounts: it is far too big for the first screen. */
export function Diagram({ definition, label, caption }: DiagramProps) {
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const [state, setState] = useState<DiagramState>({ status: 'loading' });
  const baseId = `mermaid-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;

  useEffect(() => {
    let cancelled = false;
    import('mermaid')
      .then(async ({ default: mermaid }) => {
        mermaid.initialize({
          startOnLoad: false,
          securityLevel: 'strict',
          theme: scheme === 'dark' ? 'dark' : 'default',
          // mermaid's dark edge-label grey leaves its text under 4.5:1
          ...(scheme === 'dark' ? { themeVariables: { edgeLabelBackground: '#2e2e2e' } } : {}),
          fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
          // wide enough that short two-line labels are not wrapped again
          flowchart: { wrappingWidth: 320, rankSpacing: 32, nodeSpacing: 32 },
        });
        renderCount += 1;
        const { svg } = await mermaid.render(`${baseId}-${renderCount}`, definition);
        if (!cancelled) setState({ status: 'ready', svg });
      })
      .catch((error: unknown) => {
        console.error('Diagram could not be drawn', error);
        if (!cancelled) setState({ status: 'error' });
      });
    return () => {
      cancelled = true;
    };
  }, [definition, scheme, baseId]);

  return (
    <Paper component="figure" withBorder p="md" m={0}>
      {state.status === 'loading' && (
        <Center mih={160} role="img" aria-label={label} aria-busy="true">
          <Loader size="sm" aria-hidden="true" />
        </Center>
      )}
      {state.status === 'ready' && (
        <Box
          role="img"
          aria-label={label}
          style={{ overflowX: 'auto', textAlign: 'center' }}
          // mermaid's output, sanitised by its strict security level, from our own definition
          dangerouslySetInnerHTML={{ __html: state.svg }}
        />
      )}
      {state.status === 'error' && (
        <Alert color="yellow" variant="light" title="The diagram could not be drawn">
          <Text size="sm">{label}</Text>
        </Alert>
      )}
      {caption && (
        <Text component="figcaption" size="sm" c="dimmed" mt="sm" ta="center">
          {caption}
        </Text>
      )}
    </Paper>
  );
}
