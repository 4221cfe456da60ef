import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';

import { setConsentSettingsOpen } from '../../lib/consent.ts';
import { browserStorageRows, Bullets, LegalPage, StorageTable } from './legal-page.tsx';
import { PageSection } from '../../components/page-section.tsx';

export default function CookiePolicyPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      intro="This policy lists every cookie and browser-storage item rfckit uses. The short version: only what is strictly necessary for the site to work, and nothing that tracks you."
    >
      <PageSection title="Strictly necessary storage">
        <Text>
          These items make rfckit work: your theme, your consent choice and, once you sign in, your session.
          They do not need consent and cannot be switched off, but you can delete them in your browser at any
          time.
        </Text>
        <StorageTable caption="Cookies and local storage used by rfckit" rows={browserStorageRows} />
      </PageSection>

      <PageSection title="Analytics, functionality and marketing">
        <Text>
          rfckit sets no analytics, functionality or marketing cookies and runs no such scripts. The consent
          dialog still asks about these categories so that your choice is on record before any such feature
          could be added; nothing in them runs today, whatever you choose.
        </Text>
      </PageSection>

      <PageSection title="Third parties">
        <Text>
          rfckit loads no third-party scripts, fonts, images or embeds, so no other company can set cookies
          through it. Links to the RFC Editor open that site, which has its own policies.
        </Text>
      </PageSection>

      <PageSection title="Managing your choice">
        <Bullets
          items={[
            'Change your consent at any time with Cookie Settings in the footer or the button below.',
            'Delete rfckit’s local storage and cookies in your browser’s site settings. Deleting the refresh-token cookie signs you out.',
            <>
              What rfckit does with account data is in the{' '}
              <Anchor component={Link} to="/privacy-policy" underline="always">
                privacy policy
              </Anchor>
              .
            </>,
          ]}
        />
        <div>
          <Button type="button" variant="default" onClick={() => setConsentSettingsOpen(true)}>
            Open cookie settings
          </Button>
        </div>
      </PageSection>
    </LegalPage>
  );
}
