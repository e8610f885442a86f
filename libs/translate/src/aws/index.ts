export * from './types';
export * from './lifecycle';
export * from './access';
export * from './trust';
export * from './bucket-policy';
export * from './audit';
