import { ToolPage } from '../../components/tool-page.tsx';
import { GeneratorTab } from './generator-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/mta-sts: Information, Generator (in the browser) and Validator of a pasted policy or record (RFC 8461). */
export default function MtaStsPage() {
  return (
    <ToolPage
      id="mta-sts"
      information={<InformationTab />}
      generator={<GeneratorTab />}
      validator={<ValidatorTab />}
    />
  );
}
