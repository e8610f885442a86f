/** Checkpoint stores on Azure Data Lake Storage Gen2, one per entry of `checkpoints:stores`. */
import { checkpointStack } from './src/program';

const stack = checkpointStack();
export const stores = stack.stores;
