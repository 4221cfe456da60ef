import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { liveCheckBadges } from './live-check-result.tsx';
import { LiveCheckTab } from './live-check-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/dane: Information, the TLSA Generator (pasted or fetched chain), the Validator and the Live check of a server. */
export default function DanePage() {
  return (
    <ToolPage
      id="dane"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
      trailingTabs={[{ value: 'live', label: 'Live check', panel: <LiveCheckTab /> }]}
      resultBadges={liveCheckBadges}
    />
  );
}
