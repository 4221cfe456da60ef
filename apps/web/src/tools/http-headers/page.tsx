import { ToolPage } from '../../components/tool-page.tsx';
import { AnalyserTab } from './analyser-tab.tsx';
import { headerResultBadges } from './analysis-view.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/http-headers: Information, Analyser (fetch and grade a site), Validator (grade pasted headers). */
export default function HttpHeadersPage() {
  return (
    <ToolPage
      id="http-headers"
      information={<InformationTab />}
      extraTabs={[{ value: 'analyser', label: 'Analyser', panel: <AnalyserTab /> }]}
      validator={<ValidatorTab />}
      resultBadges={headerResultBadges}
    />
  );
}
