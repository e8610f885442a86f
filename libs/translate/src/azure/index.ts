export * from './management-policy';
export * from './role-assignments';
