export * from './render';
export * from './access';
export * from './rights';
