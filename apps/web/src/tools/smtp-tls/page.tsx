import { ToolPage } from '../../components/tool-page.tsx';
import { badgeMeanings } from '../../components/status-badge.tsx';
import { BackendInfoTab, backendInfoTab } from './backend-info-tab.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { smtpTlsStatusStyles } from './validation-result.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/smtp-tls: Information, Generator, Validator and Backend Info (spec part 2 §2). */
export default function SmtpTlsPage() {
  return (
    <ToolPage
      id="smtp-tls"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
      trailingTabs={[{ value: backendInfoTab, label: 'Backend Info', panel: <BackendInfoTab /> }]}
      resultBadges={badgeMeanings(smtpTlsStatusStyles)}
    />
  );
}
