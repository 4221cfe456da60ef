import { ToolPage } from '../../components/tool-page.tsx';
import { chainBadges } from './chain-status.tsx';
import { ChainTab } from './chain-tab.tsx';
import { InformationTab } from './information-tab.tsx';
import { ValidatorTab } from './validator-tab.tsx';

/** /tools/dnskey: Information, the chain of trust of a name (Chain) and the one-key Validator; no generator. */
export default function DnskeyPage() {
  return (
    <ToolPage
      id="dnskey"
      information={<InformationTab />}
      extraTabs={[{ value: 'chain', label: 'Chain', panel: <ChainTab /> }]}
      validator={<ValidatorTab />}
      resultBadges={chainBadges}
    />
  );
}
