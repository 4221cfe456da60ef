import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/dkim: Information, Generator and Validator (spec part 1 §2). */
export default function DkimPage() {
  return (
    <ToolPage
      id="dkim"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
