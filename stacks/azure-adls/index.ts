/** Checkpoint stores on Azure Data Lake Storage Gen2, one per entry of `checkpoints:stores`. */
import { checkpointStack } from './src/program';

// The stack outputs are exactly what the program function returns: in-process renders run the function.
export = checkpointStack();
