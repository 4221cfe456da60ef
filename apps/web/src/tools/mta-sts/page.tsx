import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { liveCheckBadges, LiveCheckTab } from './live-check-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/**
 * /tools/mta-sts: Information, Generator (in the browser), Validator of a pasted policy or record,
 * and the Live check of a domain as senders apply it (RFC 8461).
 */
export default function MtaStsPage() {
  return (
    <ToolPage
      id="mta-sts"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
      trailingTabs={[{ value: 'check', label: 'Live check', panel: <LiveCheckTab /> }]}
      resultBadges={liveCheckBadges}
    />
  );
}
