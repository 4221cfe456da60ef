export * from './schema.ts';
export * from './services.ts';
export { OID_SRV_NAME, readSmtpTlsCertificate, type SmtpTlsCertificate } from './certificate.ts';
export { generateSmtpTls } from './generate.ts';
export { validateSmtpTlsIdentity, type SmtpTlsIdentityInput } from './identity.ts';
export { validateSmtpTls, validateSmtpTlsPem } from './validate.ts';
export { smtpTlsOperations } from './operations.ts';
