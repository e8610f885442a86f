export * from './render';
export * from './retention';
