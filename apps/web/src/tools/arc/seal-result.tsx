import { Alert, Button, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import type { ArcGenerateResult } from '@rfckit/standards';
import { useState } from 'react';

import { CopyButton } from '../../components/copy-button.tsx';
import { saveFile } from '../../lib/save-file.ts';

export function Output({
  label,
  value,
  copyLabel,
  maxHeight,
}: {
  label: string;
  value: string;
  copyLabel: string;
  maxHeight?: number;
}) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="center">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value} label={copyLabel} />
      </Group>
      <Code
        block
        aria-label={label}
        // break-all, not overflow-wrap: a folded ` b=` line is one long word, which would otherwise
        // leave its leading space alone on a line that looks like an empty line in the field
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight, overflowY: 'auto' }}
        tabIndex={maxHeight === undefined ? undefined : 0}
      >
        {value}
      </Code>
    </Stack>
  );
}

/**
 * The private key the server made for this seal, offered once: after the download this page stops
 * showing it. Keyed by the result, so a new seal offers its own key.
 */
function GeneratedKey({ pem, fileName }: { pem: string; fileName: string }) {
  const [downloaded, setDownloaded] = useState(false);
  if (downloaded) {
    return (
      <Text size="sm" role="status">
        Private key downloaded. This page no longer offers it.
      </Text>
    );
  }
  return (
    <Alert color="yellow" variant="light" title="Download the private key now">
      <Stack gap="xs">
        <Text size="sm">
          The server made a fresh key for this seal and did not keep it. Save it now if you want to seal with
          it again and publish the record below: it is offered only once.
        </Text>
        <Group>
          <Button
            onClick={() => {
              saveFile(new Blob([pem], { type: 'application/x-pem-file' }), fileName);
              setDownloaded(true);
            }}
          >
            Download private key (PEM)
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** The sealed message: the three header values, the fields as prepended, the message, the key. */
export function SealResult({
  data,
  selector,
  domain,
}: {
  data: ArcGenerateResult;
  selector: string;
  domain: string;
}) {
  return (
    <Stack gap="md">
      {data.warnings.length > 0 && (
        <Alert color="orange" variant="light" title="Warnings">
          <List size="sm" spacing={4} aria-label="Sealing warnings">
            {data.warnings.map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Text size="sm">
        {data.chain.existingSets === 0
          ? 'The message had no ARC set: this is the first, with cv=none.'
          : `The message had ${data.chain.existingSets} ARC set${data.chain.existingSets === 1 ? '' : 's'}; validating ${data.chain.existingSets === 1 ? 'it' : 'them'} gave cv=${data.cv}.`}
        {/* the server's reason is a phrase in lower case ("the newest ARC-Seal …"): give it a sentence */}
        {data.chain.reason ? ` The chain did not validate: ${data.chain.reason}.` : ''}
      </Text>
      <Output label="ARC-Seal" value={data.arcSeal} copyLabel="Copy ARC-Seal" />
      <Output
        label="ARC-Message-Signature"
        value={data.arcMessageSignature}
        copyLabel="Copy ARC-Message-Signature"
      />
      <Output
        label="ARC-Authentication-Results"
        value={data.arcAuthenticationResults}
        copyLabel="Copy ARC-Authentication-Results"
      />
      <Output label="Header fields to prepend" value={data.headers} copyLabel="Copy header fields" />
      <Stack gap={4}>
        <Output
          label="Sealed message"
          value={data.sealedMessage}
          copyLabel="Copy sealed message"
          maxHeight={320}
        />
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() =>
              saveFile(new Blob([data.sealedMessage], { type: 'message/rfc822' }), 'sealed-message.eml')
            }
          >
            Download sealed message (.eml)
          </Button>
        </Group>
      </Stack>
      <Stack gap="xs" component="section" aria-label="Key">
        <Title order={4} size="h5">
          {data.key.generated ? 'Generated key' : 'Key'}
        </Title>
        {data.key.generated && data.key.privateKeyPem !== null && (
          <GeneratedKey
            key={data.arcSeal}
            pem={data.key.privateKeyPem}
            fileName={`${selector.trim() || 'arc'}.${domain.trim() || 'private'}.key.pem`}
          />
        )}
        <Text size="sm">
          {data.algorithm === 'ed25519-sha256' ? 'Ed25519' : `RSA ${data.key.keyBits} bits`}. Validators fetch
          the public key from this TXT record: publish it before mail sealed with this key leaves.
        </Text>
        <Output label="DNS name (TXT)" value={data.key.dnsName} copyLabel="Copy DNS name" />
        <Output label="DKIM key record" value={data.key.record} copyLabel="Copy key record" />
      </Stack>
    </Stack>
  );
}
