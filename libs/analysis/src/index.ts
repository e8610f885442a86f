export * from './render';
export * from './changes';
export * from './retention';
