/**
 * Pulumi project checkpoints-aws: one S3 checkpoint store (bucket, key, writer and reader roles) per configured
 * store, and the trail that records their data events.
 */
import { checkpointStack } from './src/program';

const stack = checkpointStack();
export const stores = stack.stores;
/** Where every read and write of the audited stores is recorded (absent when no store is audited). */
export const audit = stack.audit;
