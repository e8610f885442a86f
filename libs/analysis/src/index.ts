export * from './render';
export * from './access';
