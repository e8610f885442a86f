export * from './render';
export * from './components';
