/** Pulumi project checkpoints-aws: one S3 checkpoint store (bucket, key, writer and reader roles) per configured store. */
import { checkpointStack } from './src/program';

const stack = checkpointStack();
export const stores = stack.stores;
