import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { dmarcResultBadges } from './validation-result.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/dmarc: Information, Generator (in the browser, spec part 1 §7) and Validator (the server's discovery). */
export default function DmarcPage() {
  return (
    <ToolPage
      id="dmarc"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
      resultBadges={dmarcResultBadges}
    />
  );
}
