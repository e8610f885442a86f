/**
 * What synth writes beside the resources: the program's warnings, each with a code and a docs section, and, when a
 * render fails, a failure record in place of the render (never an earlier run's render left to be reported).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { main } from '../src/cli';
import { warningOf } from '../src/warnings';
import { vaultProgram } from './fixtures/project/program';

const project = join(__dirname, 'fixtures', 'project');
const WORKSPACE = join(__dirname, '..', '..', '..');
const out = mkdtempSync(join(tmpdir(), 'synth-record-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function synth(args: string[], program: () => unknown) {
  const printed: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
  const error = jest.spyOn(console, 'error').mockImplementation((text: string) => void printed.push(text));
  try {
    const status = await main([`--cwd=${project}`, `--out=${out}`, ...args], { program });
    return { status, printed: printed.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const NEARLINE =
  "store x: a checkpoint overwritten or deleted between day 10 (in NEARLINE from then) and day 27 can be removed as a previous version 3 days later, before NEARLINE's 30-day minimum storage duration, and is then billed as if kept 30 days";

describe('warnings', () => {
  it('a pulumi.log.warn of the program is in the JSON with its code and docs section, and in the table', async () => {
    const printed = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const warning = () => {
      void pulumi.log.warn(NEARLINE);
      return vaultProgram();
    };
    const result = await synth([], warning);
    expect(result.status).toBe(0);
    const written = JSON.parse(readFileSync(join(out, 'dev.json'), 'utf8'));
    expect(written.warnings).toEqual([
      { code: 'early-deletion-billing', message: NEARLINE, docs: 'docs/warnings.md#early-deletion-billing' },
    ]);
    expect(result.printed).toContain(`Warning [early-deletion-billing]: ${NEARLINE}`);
    // Still printed as the SDK prints it, for whatever reads the process's warnings.
    expect(printed).toHaveBeenCalledWith(`warning: [runtime] ${NEARLINE}`);
    printed.mockRestore();
  });

  it('a render without warnings has no warnings field', async () => {
    expect((await synth([], vaultProgram)).status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'dev.json'), 'utf8'))).not.toHaveProperty('warnings');
  });

  it('every code a warning gets has its section in docs/warnings.md; an unknown warning is kept as unclassified', () => {
    const doc = readFileSync(join(WORKSPACE, 'docs', 'warnings.md'), 'utf8');
    for (const message of [
      NEARLINE,
      'the stack needs 260 storage accounts, more than the default quota "Storage accounts per region per subscription" of 250',
      'Undefined value (audit) will not show as a stack output.',
      'new',
    ]) {
      const { code, docs } = warningOf(message);
      expect(docs).toBe(`docs/warnings.md#${code}`);
      expect(doc).toContain(`## ${code}`);
    }
    expect(warningOf('something new').code).toBe('unclassified');
  });
});

describe('a failed render replaces the earlier render with a failure record', () => {
  it.each([
    ['the program failed', 3, ['--stack=crash'], 'fixture crashed on purpose'],
    ['invalid config', 2, [`--config-file=${join(project, 'Pulumi.badspec.yaml')}`], 'Invalid stack config'],
  ])('%s: exit %i, the record names why, no resources', async (_, status, args, why) => {
    const stack = args[0] === '--stack=crash' ? 'crash' : 'dev';
    const path = join(out, `${stack}.json`);
    writeFileSync(path, JSON.stringify({ project: 'synth-fixture', stack, resources: [], violations: [] }));
    const result = await synth(args, vaultProgram);
    expect(result.status).toBe(status);
    expect(existsSync(path)).toBe(true);
    const record = JSON.parse(readFileSync(path, 'utf8'));
    expect(record).not.toHaveProperty('resources');
    expect(record).toMatchObject({ project: 'synth-fixture', stack, failure: { exitStatus: status } });
    expect(record.failure.message).toContain(why);
  });
});
