import { ToolPage } from '../../components/tool-page.tsx';
import { InformationTab } from './information-tab.tsx';
import { RecommendationsTab } from './recommendations-tab.tsx';
import { SuiteSummaryCard } from './summary-card.tsx';
import { TesterTab } from './tester-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/**
 * /tools/tls-cipher: the suite database's counts above the tabs, Information, the Tester (scan and
 * grade a server), the cipher Validator and server configurations from Mozilla's profiles (spec part 2 §2).
 */
export default function TlsCipherPage() {
  return (
    <ToolPage
      id="tls-cipher"
      summary={<SuiteSummaryCard />}
      information={<InformationTab />}
      extraTabs={[{ value: 'tester', label: 'Tester', panel: <TesterTab /> }]}
      validator={<ValidatorTab />}
      trailingTabs={[{ value: 'recommendations', label: 'Recommendations', panel: <RecommendationsTab /> }]}
    />
  );
}
