import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { arcResultBadges } from './validation-result.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/arc: Information, Generator (live preview, sealing) and Validator (spec part 2). */
export default function ArcPage() {
  return (
    <ToolPage
      id="arc"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
      resultBadges={arcResultBadges}
    />
  );
}
