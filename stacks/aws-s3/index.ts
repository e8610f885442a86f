/**
 * Pulumi project checkpoints-aws: one S3 checkpoint store (bucket, key, writer and reader roles) per configured
 * store, and the trail that records their data events (`audit`, absent when no store is audited).
 */
import { checkpointStack } from './src/program';

// The stack outputs are exactly what the program function returns: in-process renders run the function.
export = checkpointStack();
