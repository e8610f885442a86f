#!/usr/bin/env node
/** checkpoints-pulumi: the command line of run.cjs (usage there). */
import { processIo } from './process-io.cjs';
import { main } from './run.cjs';

process.exitCode = await main(process.argv.slice(2), processIo());
