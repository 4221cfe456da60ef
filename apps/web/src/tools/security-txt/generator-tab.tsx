import {
  ActionIcon,
  Alert,
  Button,
  Code,
  Fieldset,
  Group,
  List,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  normaliseSecurityTxtDomain,
  type SecurityTxtGenerateBody,
  securityTxtGenerateBody,
  securityTxtOperations,
} from '@rfckit/standards';
import { useId, useState, type FormEvent } from 'react';

import { CopyButton } from '../../components/copy-button.tsx';
import { requestPanelState } from '../../components/request-form.ts';
import { ResultPanel } from '../../components/result-panel.tsx';
import { useOperation } from '../../lib/operations.ts';
import { failureMessage } from '../../lib/failure-message.ts';

/** Spec part 2 §4: the security.txt copy button says 'Copied!' for 1.5 s. */
const COPIED_FOR_MS = 1500;

type OptionalField = 'acknowledgments' | 'canonical' | 'policy' | 'hiring' | 'encryption' | 'csaf';

interface FormState {
  domain: string;
  contacts: string[];
  expires: string;
  preferredLanguages: string[];
  optional: Record<OptionalField, string>;
}

/** Now plus one year, ISO 8601 without fractions, ending in Z (spec: the '+1 Year' button). */
export function oneYearAhead(now = new Date()): string {
  const next = new Date(now.getTime());
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const DAY_MS = 86_400_000;

/**
 * The Expires the form starts with: a year ahead (spec part 2 §9) less one day, so that it is less
 * than a year into the future as RFC 9116 §2.5.5 recommends and the hint says.
 */
export function defaultExpiry(now = new Date()): string {
  return oneYearAhead(new Date(now.getTime() - DAY_MS));
}

/** What the date-time picker shows for an Expires value: its first 16 characters, YYYY-MM-DDTHH:MM. */
function pickerValue(expires: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(expires) ? expires.slice(0, 16) : '';
}

const optionalFields: { key: OptionalField; label: string; description: string; type: 'url' | 'text' }[] = [
  {
    key: 'encryption',
    label: 'Encryption',
    description: 'Where your OpenPGP key can be fetched: an https:// URL, or openpgp4fpr:<fingerprint>.',
    type: 'text',
  },
  {
    key: 'policy',
    label: 'Policy',
    description: 'Your vulnerability disclosure policy.',
    type: 'url',
  },
  {
    key: 'acknowledgments',
    label: 'Acknowledgments',
    description: 'A page thanking researchers who reported issues.',
    type: 'url',
  },
  {
    key: 'canonical',
    label: 'Canonical',
    description: 'Where this file is published; recommended when you sign it.',
    type: 'url',
  },
  { key: 'hiring', label: 'Hiring', description: 'Security-related job openings.', type: 'url' },
  {
    key: 'csaf',
    label: 'CSAF',
    description: 'The https:// URL of your CSAF provider-metadata.json.',
    type: 'url',
  },
];

function download(file: string) {
  const url = URL.createObjectURL(new Blob([file], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'security.txt';
  document.body.append(link);
  link.click();
  link.remove();
  // after the click has handed the file to the browser
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function GeneratorTab() {
  // the settings: @mantine/form holds them, as it holds every tool form's values
  const settings = useForm<FormState>({
    initialValues: {
      domain: '',
      contacts: [''],
      expires: defaultExpiry(),
      preferredLanguages: [],
      optional: { acknowledgments: '', canonical: '', policy: '', hiring: '', encryption: '', csaf: '' },
    },
  });
  const form = settings.values;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const generation = useOperation(securityTxtOperations.generate);
  const contactsErrorId = useId();
  const domain = normaliseSecurityTxtDomain(form.domain) || 'example.com';

  function update(patch: Partial<FormState>) {
    settings.setValues(patch);
  }

  function clearError(key: string) {
    if (errors[key] === undefined) return;
    setErrors((previous) => {
      const next = { ...previous };
      delete next[key];
      return next;
    });
  }

  function setContact(index: number, value: string) {
    update({ contacts: form.contacts.map((c, i) => (i === index ? value : c)) });
    clearError(`contacts.${index}`);
    clearError('contacts');
  }

  function removeContact(index: number) {
    update({ contacts: form.contacts.filter((_, i) => i !== index) });
    setErrors({});
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (generation.isPending) return;
    const body: SecurityTxtGenerateBody = {
      domain: form.domain,
      contacts: form.contacts,
      expires: form.expires,
      preferredLanguages: form.preferredLanguages,
      ...form.optional,
    };
    // the shared schema gives the messages the server would
    const parsed = securityTxtGenerateBody.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
      setErrors(found);
      generation.reset();
      return;
    }
    setErrors({});
    generation.mutate(parsed.data);
  }

  const state = requestPanelState(generation, {
    pending: 'Generating the file…',
    empty: 'Fill in the domain, at least one contact and the expiry, then choose Generate.',
    errorMessage: (error) => failureMessage(error, 'Failed to generate security.txt file'),
    success: ({ file, warnings }) => ({
      title: 'Your security.txt',
      children: (
        <Stack gap="sm">
          <Group gap="xs">
            <CopyButton
              value={file}
              label="Copy"
              ariaLabel="Copy security.txt"
              timeout={COPIED_FOR_MS}
              size="sm"
            />
            <Button type="button" size="sm" variant="default" onClick={() => download(file)}>
              Download security.txt
            </Button>
          </Group>
          <Code block className="mono-block" data-testid="security-txt-output">
            {file}
          </Code>
          {warnings.length > 0 && (
            <Alert color="yellow" variant="light" title="Worth a look">
              <List size="sm" spacing={4}>
                {warnings.map((warning) => (
                  <List.Item key={warning}>{warning}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Text size="sm">
            Publish it at <Code>https://{domain}/.well-known/security.txt</Code>, served as{' '}
            <Code>text/plain; charset=utf-8</Code>. To sign it, run <Code>gpg --clearsign security.txt</Code>{' '}
            and publish the <Code>security.txt.asc</Code> output under the same name.
          </Text>
        </Stack>
      ),
    }),
  });

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="security.txt generator">
        <Stack gap="md">
          <TextInput
            label="Domain"
            description="The host the file is for."
            placeholder="example.com"
            withAsterisk
            required
            value={form.domain}
            onChange={(event) => {
              update({ domain: event.currentTarget.value });
              clearError('domain');
            }}
            error={errors.domain}
            autoCapitalize="off"
            spellCheck={false}
          />

          <Fieldset
            legend="Contacts"
            variant="default"
            aria-describedby={errors.contacts ? contactsErrorId : undefined}
          >
            <Text size="sm" c="dimmed" mb="xs">
              How to reach you: mailto:, https: or tel: URIs, the preferred one first. At least one is
              required.
            </Text>
            <Stack gap="xs">
              {form.contacts.map((contact, index) => (
                // rows are only ever appended or removed as a whole; the index names the row
                <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                  <TextInput
                    style={{ flex: 1 }}
                    label={`Contact ${index + 1}`}
                    placeholder={index === 0 ? 'mailto:security@example.com' : 'https://example.com/security'}
                    withAsterisk={index === 0}
                    value={contact}
                    onChange={(event) => setContact(index, event.currentTarget.value)}
                    error={errors[`contacts.${index}`]}
                    autoCapitalize="off"
                    spellCheck={false}
                  />
                  <ActionIcon
                    variant="default"
                    size="lg"
                    mt={25}
                    aria-label={`Remove contact ${index + 1}`}
                    disabled={form.contacts.length === 1}
                    onClick={() => removeContact(index)}
                  >
                    <span aria-hidden="true">×</span>
                  </ActionIcon>
                </Group>
              ))}
              {errors.contacts && (
                <Text id={contactsErrorId} size="sm" c="red.8" role="alert">
                  {errors.contacts}
                </Text>
              )}
              <Group>
                <Button
                  type="button"
                  variant="default"
                  size="xs"
                  disabled={form.contacts.length >= 20}
                  onClick={() => update({ contacts: [...form.contacts, ''] })}
                >
                  Add contact
                </Button>
              </Group>
            </Stack>
          </Fieldset>

          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              type="datetime-local"
              label="Expires (UTC)"
              description="No more than a year ahead: RFC 9116 recommends less than a year, so it starts a day short of one."
              withAsterisk
              required
              style={{ flex: '1 1 16rem' }}
              value={pickerValue(form.expires)}
              onChange={(event) => {
                const value = event.currentTarget.value;
                update({ expires: value ? `${value.slice(0, 16)}:00Z` : '' });
                clearError('expires');
              }}
              error={errors.expires}
            />
            <Button
              type="button"
              variant="default"
              mb={errors.expires ? 24 : 0}
              onClick={() => {
                update({ expires: oneYearAhead() });
                clearError('expires');
              }}
            >
              +1 Year
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={-8} aria-live="polite">
            Expires: <span data-testid="security-txt-expires">{form.expires || 'not set'}</span>
          </Text>

          <TagsInput
            label="Preferred languages"
            description="Language tags (BCP 47), e.g. en, nl, fr-CA. Press Enter or type a comma after each."
            placeholder="en"
            splitChars={[',', ' ']}
            value={form.preferredLanguages}
            onChange={(value) => {
              update({ preferredLanguages: value });
              for (let i = 0; i < Math.max(value.length, form.preferredLanguages.length); i++) {
                clearError(`preferredLanguages.${i}`);
              }
            }}
            error={Object.entries(errors).find(([key]) => key.startsWith('preferredLanguages'))?.[1]}
            clearable
          />

          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {optionalFields.map((field) => (
              <TextInput
                key={field.key}
                type={field.type}
                label={field.label}
                description={field.description}
                placeholder={
                  field.key === 'canonical'
                    ? `https://${domain}/.well-known/security.txt`
                    : field.key === 'csaf'
                      ? `https://${domain}/.well-known/csaf/provider-metadata.json`
                      : field.key === 'encryption'
                        ? `https://${domain}/pgp-key.txt`
                        : `https://${domain}/${field.key}`
                }
                value={form.optional[field.key]}
                onChange={(event) => {
                  update({ optional: { ...form.optional, [field.key]: event.currentTarget.value } });
                  clearError(field.key);
                }}
                error={errors[field.key]}
                autoCapitalize="off"
                spellCheck={false}
              />
            ))}
          </SimpleGrid>

          <Group justify="flex-end">
            <Button type="submit" disabled={generation.isPending}>
              {generation.isPending ? 'Generating...' : 'Generate'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ResultPanel state={state} label="Generated file" />
    </Stack>
  );
}
