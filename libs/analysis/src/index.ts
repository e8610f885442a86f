export * from './changes';
export * from './retention';
export * from './access';
export * from './rights';
export * from './audit/aws';
export * from './context';
export * from './compliance';
export * from './trust';
export type { CiChange } from './trust/changes';
