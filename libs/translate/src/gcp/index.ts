export * from './lifecycle';
export * from './access';
