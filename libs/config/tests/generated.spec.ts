import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import {
  configDoc,
  GENERATE_COMMAND,
  generatedFiles,
  schemaFile,
  schemaLine,
  STACK_FOLDERS,
  stackConfigNames,
} from '../src/generate';
import { CLOUDS, type Cloud } from '../src/spec';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : '');
const listing = (folder: string) => stackConfigNames(readdirSync(join(root, folder)));

describe('the files generated from the schema', () => {
  it('are up to date', () => {
    const stale = generatedFiles(read, listing)
      .filter(({ path, content }) => read(path) !== content)
      .map(({ path }) => path);
    if (stale.length > 0) {
      throw new Error(
        `generated from libs/config/src/schema.ts and out of date: ${stale.join(', ')}; run ${GENERATE_COMMAND} and commit the result`,
      );
    }
  });

  it('a hand edit of a generated table is undone by the generator', () => {
    const doc = read('docs/config.md');
    const edited = doc.replace('GCP: 7 to 90', 'GCP: 7 to 365');
    expect(edited).not.toBe(doc);
    expect(configDoc(edited)).toBe(doc);
  });

  it('every Pulumi.<stack>.yaml names its cloud editor schema on its first line', () => {
    for (const cloud of CLOUDS) {
      const names = listing(STACK_FOLDERS[cloud]);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const firstLine = read(`${STACK_FOLDERS[cloud]}/${name}`).split('\n')[0];
        expect(firstLine).toBe(schemaLine(cloud));
        expect(existsSync(join(root, STACK_FOLDERS[cloud], firstLine!.split('=')[1]!))).toBe(true);
      }
    }
  });
});

interface EditorSchema {
  properties: {
    config: { propertyNames: { anyOf: [{ enum: string[] }, { pattern: string }] } };
  };
}

function editorSchema(cloud: Cloud): { validate: z.ZodType; keyAllowed: (key: string) => boolean } {
  const json = JSON.parse(read(schemaFile(cloud))) as EditorSchema;
  const [known, other] = json.properties.config.propertyNames.anyOf;
  return {
    validate: z.fromJSONSchema(json as unknown as Parameters<typeof z.fromJSONSchema>[0]),
    keyAllowed: (key) => known.enum.includes(key) || new RegExp(other.pattern).test(key),
  };
}

function stackFile(cloud: Cloud, stack: string): { config: Record<string, unknown> } {
  return parse(read(`${STACK_FOLDERS[cloud]}/Pulumi.${stack}.yaml`)) as { config: Record<string, unknown> };
}

function withStore(file: { config: Record<string, unknown> }, change: Record<string, unknown>) {
  const stores = file.config['checkpoints:stores'] as Record<string, unknown>[];
  return { ...file, config: { ...file.config, 'checkpoints:stores': [{ ...stores[0], ...change }] } };
}

describe.each(CLOUDS)('the %s editor schema', (cloud) => {
  const { validate, keyAllowed } = editorSchema(cloud);

  it.each(['dev', 'prod'])('accepts the shipped Pulumi.%s.yaml and each of its keys', (stack) => {
    const file = stackFile(cloud, stack);
    expect(validate.safeParse(file).error?.issues).toBeUndefined();
    expect(Object.keys(file.config).filter((key) => !keyAllowed(key))).toEqual([]);
  });

  it('refuses a typo of a stack key, and leaves the providers keys to them', () => {
    expect(keyAllowed('checkpoints:stors')).toBe(false);
    expect(keyAllowed('checkpoints:stores')).toBe(true);
    expect(keyAllowed('aws:region')).toBe(true);
  });

  it('refuses a typo of a store key and a key another cloud alone honours, and takes its own', () => {
    const file = stackFile(cloud, 'dev');
    const accepts = (change: Record<string, unknown>) => validate.safeParse(withStore(file, change)).success;
    const keys: Record<Cloud, [Record<string, unknown>, Record<string, unknown>]> = {
      aws: [{ zone: 'use1-az4' }, { location: 'us-east-1' }],
      gcp: [{ location: 'us-central1' }, { recovery: { readableReplica: true } }],
      azure: [{ recovery: { readableReplica: true } }, { zone: 'use1-az4' }],
    };
    const [own, others] = keys[cloud];
    expect(accepts({ tyer: 'standard' })).toBe(false);
    expect(accepts(own)).toBe(true);
    expect(accepts(others)).toBe(false);
  });

  it("states the cloud's own soft delete limit", () => {
    const file = stackFile(cloud, 'dev');
    const max = { aws: 0, gcp: 90, azure: 365 }[cloud];
    const accepts = (softDeleteDays: number) =>
      validate.safeParse(withStore(file, { retention: { softDeleteDays } })).success;
    expect(accepts(max)).toBe(true);
    expect(accepts(max + 1)).toBe(false);
  });
});
