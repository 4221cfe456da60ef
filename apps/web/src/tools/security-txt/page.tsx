import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/security-txt: Information, Generator and Validator (spec part 2 §2). */
export default function SecurityTxtPage() {
  return (
    <ToolPage
      id="security-txt"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
