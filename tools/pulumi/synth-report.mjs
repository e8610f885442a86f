#!/usr/bin/env node
/** checkpoints-synth-report: the command line of synth-report.cjs (usage there). */
import { main } from './synth-report.cjs';
import { processIo } from './process-io.cjs';

process.exitCode = main(process.argv.slice(2), processIo());
