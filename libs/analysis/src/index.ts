export * from './changes';
export * from './retention';
export * from './access';
export * from './rights';
export * from './audit/aws';
export * from './context';
export * from './compliance';
