import { Badge, Box, Group, Stack, Text } from '@mantine/core';
import type { SmtpStepView } from '@rfckit/standards';

import { passGreen, StatusBadge } from '../../components/status-badge.tsx';

/** What each step is, in words. */
export const stepNames: Record<SmtpStepView['kind'], string> = {
  connect: 'Connect',
  banner: 'Greeting',
  ehlo: 'EHLO',
  starttls: 'STARTTLS',
  tls: 'TLS handshake',
  'ehlo-tls': 'EHLO after TLS',
  quit: 'QUIT',
};

/** One sentence per step, for the live announcement. */
export function stepSummary(step: SmtpStepView): string {
  const outcome = step.ok
    ? step.code === null
      ? 'done'
      : `answered ${step.code}`
    : `failed: ${step.error ?? (step.code === null ? 'no answer' : `answered ${step.code}`)}`;
  return `${stepNames[step.kind]} ${outcome} in ${step.durationMs} ms`;
}

const okStyle = {
  text: 'ok',
  colour: passGreen,
  textColour: 'white',
  meaning: 'The step went as RFC 5321 expects.',
};
const failStyle = {
  text: 'failed',
  colour: 'red.9',
  textColour: 'white',
  meaning: 'The step failed; see why below.',
};

/** The session as it went: each step with its time, the lines sent (C:) and received (S:). */
export function Transcript({ steps, label }: { steps: readonly SmtpStepView[]; label: string }) {
  return (
    <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {steps.map((step, index) => (
        <Box component="li" key={`${step.kind}-${index}`}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} size="sm">
              {stepNames[step.kind]}
            </Text>
            <StatusBadge style={step.ok ? okStyle : failStyle} label={stepNames[step.kind]} />
            <Badge variant="light" color="gray" radius="sm" size="sm" tt="none" c="var(--mantine-color-text)">
              +{step.startedMs} ms · took {step.durationMs} ms
            </Badge>
          </Group>
          {(step.sent !== null || step.reply.length > 0) && (
            <Box
              component="pre"
              mt={4}
              mb={0}
              p="xs"
              ff="monospace"
              fz="xs"
              bg="var(--mantine-color-default-hover)"
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', borderRadius: 4 }}
            >
              {[
                ...(step.sent === null ? [] : [`C: ${step.sent}`]),
                ...step.reply.map((line) => `S: ${line}`),
              ].join('\n')}
            </Box>
          )}
          {step.error !== null && (
            <Text size="sm" c="var(--mantine-color-error)" mt={2}>
              {step.error}
            </Text>
          )}
        </Box>
      ))}
    </Stack>
  );
}
