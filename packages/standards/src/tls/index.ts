export * from './suite.ts';
export * from './suites.ts';
export * from './lookup.ts';
export * from './constants.ts';
export { ByteReader, ByteWriter, bitLength } from './bytes.ts';
export * from './client-hello.ts';
export * from './records.ts';
export * from './server-messages.ts';
export * from './ssl2.ts';
