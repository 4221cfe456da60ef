export * from './dns-server.ts';
export * from './ca.ts';
export * from './web-server.ts';
export * from './lab-env.ts';
export * from './tls-servers.ts';
export * from './dnssec-lab.ts';
export * from './smtp-servers.ts';
export * from './mta-sts-lab.ts';
