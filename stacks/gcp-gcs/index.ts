/** Pulumi program of checkpoints-gcp: one Cloud Storage checkpoint store per entry of `checkpoints:stores`. */
import { checkpointStack } from './src/program';

const stack = checkpointStack();
export const stores = stack.stores;
export const audit = stack.audit;
