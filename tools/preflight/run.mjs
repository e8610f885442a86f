#!/usr/bin/env node
/** checkpoints-preflight: the command line of run.cjs (usage there). */
import { processIo } from '../pulumi/process-io.cjs';
import { main } from './run.cjs';

process.exitCode = await main(process.argv.slice(2), processIo());
