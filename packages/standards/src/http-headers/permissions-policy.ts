import { parseDictionary, StructuredFieldError, type DictionaryMember } from './structured-fields.ts';

/** Features that reach the visitor's devices, location or money: worth denying when unused. */
export const powerfulFeatures = [
  'camera',
  'microphone',
  'geolocation',
  'payment',
  'usb',
  'serial',
  'hid',
  'bluetooth',
  'display-capture',
] as const;

export const permissionsPolicyExample =
  'Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=(), usb=()';

export type AdviceStatus = 'PASS' | 'WARN' | 'ERROR';

export interface PermissionsPolicyAdvice {
  status: AdviceStatus;
  /** What was found; empty when all is well. */
  findings: string[];
  /** The recommendation to show, or null when none is needed. */
  recommendation: { severity: 'MEDIUM' | 'LOW'; description: string } | null;
}

/** Serialises a feature's allowlist back to header syntax, for messages. */
function allowlistText(member: DictionaryMember): string {
  const show = (item: { type: string; value: unknown }) =>
    item.type === 'string' ? `"${String(item.value)}"` : String(item.value);
  return 'list' in member ? `(${member.list.map((i) => show(i.item)).join(' ')})` : show(member.item);
}

function allowsEveryOrigin(member: DictionaryMember): boolean {
  const items = 'list' in member ? member.list.map((i) => i.item) : [member.item];
  return items.some((item) => item.type === 'token' && item.value === '*');
}

const notScored = 'The MDN HTTP Observatory does not score Permissions-Policy; this is advice only.';

/**
 * Advice on Permissions-Policy (W3C Permissions Policy §5.2, a structured-field dictionary of
 * feature → allowlist). Not part of the Observatory's score.
 */
export function adviseOnPermissionsPolicy(
  permissionsPolicy: string | null,
  featurePolicy: string | null,
): PermissionsPolicyAdvice {
  if (permissionsPolicy === null) {
    const legacy = featurePolicy !== null;
    return {
      status: 'WARN',
      findings: [legacy ? 'Only the old Feature-Policy header is set.' : 'Permissions-Policy is not set.'],
      recommendation: {
        severity: 'LOW',
        description:
          (legacy
            ? 'Feature-Policy is the superseded name and syntax; current browsers read Permissions-Policy. '
            : 'Without Permissions-Policy every feature keeps its default allowlist, so the page and its same-origin frames may ask for the camera, microphone, location and more. ') +
          `Deny the powerful features the site does not use. ${notScored}`,
      },
    };
  }
  let dictionary: Map<string, DictionaryMember>;
  try {
    dictionary = parseDictionary(permissionsPolicy);
  } catch (error) {
    const reason = error instanceof StructuredFieldError ? error.message : String(error);
    return {
      status: 'ERROR',
      findings: [`The header is not a valid structured-field dictionary: ${reason}.`],
      recommendation: {
        severity: 'MEDIUM',
        description: `Permissions-Policy cannot be parsed (${reason}), so browsers ignore all of it. Write it as feature=(allowlist) pairs separated by commas. ${notScored}`,
      },
    };
  }
  const open = powerfulFeatures.filter((feature) => {
    const member = dictionary.get(feature);
    return member !== undefined && allowsEveryOrigin(member);
  });
  const denied = powerfulFeatures.filter((feature) => {
    const member = dictionary.get(feature);
    return member !== undefined && 'list' in member && member.list.length === 0;
  });
  const findings = [...dictionary].map(([feature, member]) => `${feature}=${allowlistText(member)}`);
  if (denied.length) findings.push(`Denied to everyone: ${denied.join(', ')}.`);
  if (open.length === 0) return { status: 'PASS', findings, recommendation: null };
  return {
    status: 'WARN',
    findings,
    recommendation: {
      severity: 'LOW',
      description: `Permissions-Policy lets every origin use ${open.join(', ')}. Allow them to self or to named origins only, or deny them with (). ${notScored}`,
    },
  };
}
