#!/usr/bin/env node
/** checkpoints-affected: the command line of affected.cjs (usage there). */
import { main } from './affected.cjs';
import { processIo } from './process-io.cjs';

process.exitCode = main(process.argv.slice(2), processIo());
