export { SLOW_BANNER_MS, smtpMxDiagnostics, smtpSessionDeviations } from './deviations.ts';
export { smtpSessionInspectorOperations } from './operations.ts';
export * from './schema.ts';
