export * from './suite.ts';
export * from './suites.ts';
export * from './lookup.ts';
