export * from './aws';
export * from './gcp';
export * from './azure';
