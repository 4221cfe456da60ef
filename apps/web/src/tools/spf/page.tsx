import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { includeTreeBadges } from './include-tree.tsx';
import { InformationTab } from './information-tab.tsx';
import { TestTab } from './test-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/spf: Information, Test (check_host for an IP, sender and HELO), Generator and Validator. */
export default function SpfPage() {
  return (
    <ToolPage
      id="spf"
      information={<InformationTab />}
      extraTabs={[{ value: 'test', label: 'Test', panel: <TestTab /> }]}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
      resultBadges={includeTreeBadges}
    />
  );
}
