/** Bootstrap: the identities GitHub Actions federates into to preview and deploy the stacks (see docs/bootstrap.md). */
import { bootstrapStack } from './src/program';

export = bootstrapStack();
