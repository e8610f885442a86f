export * from './render';
export * from './changes';
