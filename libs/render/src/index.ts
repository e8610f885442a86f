export * from './render';
export * from './components';
export * from './azure-resource-providers';
