import { z } from 'zod';
import { awsRules, azureRules, gcpRules } from './clouds';
import { isAbsent, limitOf, rangeWords, type NumericKey } from './limits';
import type { CloudRules } from './load';
import { cloudsOf, KEY_DOCS, schemasFor, unwrap, type KeyDoc } from './schema';
import { CLOUDS, CONFIG_NAMESPACE, RETENTION_DEFAULTS, TIERS, type Cloud, type RetentionSpec } from './spec';

/*
 * The files generated from the schema (schema.ts, limits.ts): docs/config.md's key tables, the checkpoints:
 * declarations of each stack's Pulumi.yaml, the editor JSON Schema of each cloud's Pulumi.<stack>.yaml, and
 * the schema line of each Pulumi.<stack>.yaml. Pure: each takes the file as it is and returns it as it
 * should be, so the staleness test and the script share one path.
 */

export const GENERATE_COMMAND = 'npm run config:generate';

/** The stack folder of each cloud. */
export const STACK_FOLDERS: Readonly<Record<Cloud, string>> = {
  aws: 'stacks/aws-s3',
  gcp: 'stacks/gcp-gcs',
  azure: 'stacks/azure-adls',
};

const CLOUD_NAMES: Readonly<Record<Cloud, string>> = { aws: 'AWS', gcp: 'GCP', azure: 'Azure' };

const RULES: Readonly<Record<Cloud, CloudRules>> = { aws: awsRules, gcp: gcpRules(), azure: azureRules };

export function schemaFile(cloud: Cloud): string {
  return `schemas/stack-config.${cloud}.json`;
}

interface Row {
  key: string;
  words: KeyDoc;
  /** Path within a store (or the stack key), for the per-cloud tables. */
  path: string;
  scope: 'stack' | 'store';
}

/** The keys of a block in declaration order, each with its words. */
function rowsOf(block: z.ZodType, scope: 'stack' | 'store', prefix = ''): Row[] {
  const type = unwrap(block);
  const object = type instanceof z.ZodArray ? unwrap(type.element as z.ZodType) : type;
  if (!(object instanceof z.ZodObject)) return [];
  return Object.entries(object.shape as Record<string, z.ZodType>).map(([key, child]) => {
    const words = KEY_DOCS.get(unwrap(child));
    if (!words) throw new Error(`${prefix}${key} has no words in schema.ts`);
    return { key, words, path: `${prefix}${key}`, scope };
  });
}

function blockAt(path: readonly (string | number)[]): z.ZodType {
  let type: z.ZodType = schemasFor(undefined).stack;
  for (const segment of path) {
    const inner = unwrap(type);
    type =
      typeof segment === 'number'
        ? ((inner as z.ZodArray).element as z.ZodType)
        : ((inner as z.ZodObject).shape as Record<string, z.ZodType>)[segment]!;
  }
  return type;
}

/** A range in a table cell: `7 to 90`, `0 (never) to 36500`. */
function rangeCell(key: NumericKey, cloud: Cloud | undefined): string {
  const limit = limitOf(key, cloud);
  if (isAbsent(limit)) return '0 only (the cloud has no such feature)';
  const range = rangeWords(key, limit)
    .replace(/^a (whole )?number( of \w+)? /, '')
    .replace(/^from /, '');
  return limit.ruleBelow !== undefined && limit.note ? `${range} (${limit.note})` : range;
}

/** `AWS, GCP: x; Azure: y`: the clouds that share a cell named together. */
function byCloud(cells: readonly (readonly [Cloud, string])[]): string {
  const groups = new Map<string, Cloud[]>();
  for (const [cloud, cell] of cells) groups.set(cell, [...(groups.get(cell) ?? []), cloud]);
  return [...groups]
    .map(([cell, clouds]) => `${clouds.map((cloud) => CLOUD_NAMES[cloud]).join(', ')}: ${cell}`)
    .join('; ');
}

function allowedCell(row: Row): string {
  const key = row.words.numeric;
  if (!key) return row.words.type === 'block' ? 'the keys below' : markdown(row.words.allowed ?? '');
  const perCloud = CLOUDS.map((cloud) => [cloud, rangeCell(key, cloud)] as const);
  const common = rangeCell(key, undefined);
  return perCloud.every(([, cell]) => cell === common) ? common : byCloud(perCloud);
}

/** A retention key's default and the clouds and tiers that lower it, read from the rules themselves. */
function retentionDefault(key: keyof RetentionSpec, stated: string): string {
  const lowered = new Map<string, string[]>();
  for (const cloud of CLOUDS) {
    const tiers = TIERS.filter((tier) => {
      const value = RULES[cloud].retentionDefaults?.(tier)[key];
      return value !== undefined && value !== RETENTION_DEFAULTS[key];
    });
    const value = tiers[0] && RULES[cloud].retentionDefaults?.(tiers[0])[key];
    if (tiers.length === 0) continue;
    const where =
      tiers.length === TIERS.length ? CLOUD_NAMES[cloud] : `${CLOUD_NAMES[cloud]} ${tiers.join(', ')}`;
    const shown = JSON.stringify(value);
    lowered.set(shown, [...(lowered.get(shown) ?? []), where]);
  }
  const cells = [...lowered].map(([value, where]) => `${value} on ${where.join(', ')}`);
  return cells.length > 0 ? `${stated} (${cells.join('; ')})` : stated;
}

function onlyOn(row: Row): string {
  const clouds = cloudsOf(row.scope, row.path);
  if (!clouds || clouds.length === CLOUDS.length) return '';
  return `**${clouds.map((cloud) => CLOUD_NAMES[cloud]).join(' and ')} only.** `;
}

/** Text of a table cell: its pipes escaped. */
function markdown(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/_/g, '\\_').replace(/\*/g, '\\*');
}

function table(rows: Row[], keyPrefix: string): string {
  const header = ['key', 'type', 'allowed values', 'default', 'meaning'];
  const body = rows.map((row) => {
    const stated = row.words.default;
    const fallback =
      row.path.startsWith('retention.') && row.path.split('.')[1]! in RETENTION_DEFAULTS
        ? retentionDefault(row.path.split('.')[1] as keyof RetentionSpec, stated)
        : stated;
    return [
      `\`${keyPrefix}${row.key}\``,
      row.words.type.includes('`') ? row.words.type : markdown(row.words.type),
      allowedCell(row),
      fallback,
      `${onlyOn(row)}${row.words.meaning}`,
    ];
  });
  return alignedTable([header, ...body]);
}

/** A markdown table aligned as prettier aligns it, so `prettier --check` passes on the generated file. */
function alignedTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...row[column]!].length), 3));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell + ' '.repeat(widths[column]! - [...cell].length)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}

/** Each generated table: its marker name and rows. */
function docTables(): { name: string; text: string }[] {
  const store = ['stores', 0] as const;
  const storeRows = (path: (string | number)[], prefix: string) => rowsOf(blockAt(path), 'store', prefix);
  const recovery = storeRows([...store, 'recovery'], 'recovery.');
  const lock = storeRows([...store, 'recovery', 'retentionLock'], 'recovery.retentionLock.');
  const copy = storeRows([...store, 'recovery', 'independentCopy'], 'recovery.independentCopy.');
  return [
    { name: 'stack keys', text: table(rowsOf(blockAt([]), 'stack'), `${CONFIG_NAMESPACE}:`) },
    {
      name: 'ci runner keys',
      text: table(rowsOf(blockAt(['ciRunners']), 'stack'), `${CONFIG_NAMESPACE}:ciRunners.`),
    },
    { name: 'store keys', text: table(storeRows([...store], ''), '') },
    { name: 'retention keys', text: table(storeRows([...store, 'retention'], 'retention.'), '') },
    { name: 'workload keys', text: table(storeRows([...store, 'workload'], 'workload.'), '') },
    { name: 'access keys', text: table(storeRows([...store, 'access'], 'access.'), '') },
    { name: 'network keys', text: table(storeRows([...store, 'network'], 'network.'), '') },
    {
      name: 'recovery keys',
      text: table(
        [...recovery, ...lock, ...copy].map((row) => ({ ...row, key: row.path.slice('recovery.'.length) })),
        '',
      ),
    },
  ];
}

function begin(name: string): string {
  return `<!-- ${name}: generated from libs/config/src/schema.ts by ${GENERATE_COMMAND}; edit there -->`;
}
const END = '<!-- end of generated table -->';

/** docs/config.md with each marked table regenerated. */
export function configDoc(current: string): string {
  let text = current;
  for (const { name, text: generated } of docTables()) {
    const start = text.indexOf(begin(name));
    const end = start < 0 ? -1 : text.indexOf(END, start);
    if (start < 0 || end < 0) throw new Error(`docs/config.md has no generated table "${name}"`);
    text = `${text.slice(0, start)}${begin(name)}\n\n${generated}\n\n${text.slice(end)}`;
  }
  return text;
}

/** Plain words for a YAML description: no markdown emphasis or code marks. */
function plain(text: string): string {
  return text.replace(/\*\*/g, '').replace(/`/g, '').replace(/\\\|/g, '|');
}

/** A key's type or range on `cloud`, and its default, in plain words. */
function valueWords(words: KeyDoc, cloud: Cloud): string {
  const key = words.numeric;
  const limit = key && limitOf(key, cloud);
  const allowed = key && limit ? (isAbsent(limit) ? '0 only' : rangeWords(key, limit)) : plain(words.type);
  const fallback = plain(words.default);
  return fallback === 'required' ? `${allowed}, required` : `${allowed}, default ${fallback}`;
}

const STORES_MARKER =
  '    # The checkpoints: keys below are generated from libs/config/src/schema.ts by npm run config:generate.';

/** The `checkpoints:` declarations of a stack's Pulumi.yaml (under template.config), for its cloud. */
function pulumiDeclarations(cloud: Cloud): string {
  const stackRows = rowsOf(blockAt([]), 'stack').filter((row) => appliesOn(row, cloud));
  const lines = [STORES_MARKER];
  for (const row of stackRows) {
    let description = `${valueWords(row.words, cloud)}. ${plain(row.words.meaning)}`;
    if (row.key === 'stores') {
      const keys = storeKeyWords(rowsOf(blockAt(['stores', 0]), 'store'), cloud);
      description = `list of stores, required, at least one. Each store's keys on ${CLOUD_NAMES[cloud]} (docs/config.md gives their meaning; ${schemaFile(cloud)} gives them to editors): ${keys}.`;
    }
    lines.push(`    ${CONFIG_NAMESPACE}:${row.key}:`, '      description: >-', ...wrap(description, 8, 110));
  }
  return lines.join('\n') + '\n';
}

function appliesOn(row: Row, cloud: Cloud): boolean {
  const clouds = cloudsOf(row.scope, row.path);
  return !clouds || clouds.includes(cloud);
}

function storeKeyWords(rows: Row[], cloud: Cloud): string {
  return rows
    .filter((row) => appliesOn(row, cloud))
    .map((row) => {
      const inner = rowsOf(blockAt(['stores', 0, ...row.path.split('.')]), 'store', `${row.path}.`);
      if (inner.length > 0) return `${row.key} (${storeKeyWords(inner, cloud)})`;
      return `${row.key} (${valueWords(row.words, cloud)})`;
    })
    .join(', ');
}

/** Words wrapped to `width` columns at `indent`, as a folded YAML scalar's lines. */
function wrap(text: string, indent: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((text) => ' '.repeat(indent) + text);
}

/** A stack's Pulumi.yaml with its checkpoints: declarations regenerated (they end the file). */
export function pulumiProject(current: string, cloud: Cloud): string {
  const marker = current.indexOf(STORES_MARKER);
  const start = marker >= 0 ? marker : current.search(/^ {4}checkpoints:/m);
  if (start < 0) throw new Error(`${STACK_FOLDERS[cloud]}/Pulumi.yaml declares no checkpoints: key`);
  return current.slice(0, start) + pulumiDeclarations(cloud);
}

/** The line that gives a Pulumi.<stack>.yaml its editor schema. */
export function schemaLine(cloud: Cloud): string {
  return `# yaml-language-server: $schema=../../${schemaFile(cloud)}`;
}

/** A Pulumi.<stack>.yaml with the schema line first. */
export function stackConfigFile(current: string, cloud: Cloud): string {
  const lines = current.split('\n');
  const rest = lines[0]?.startsWith('# yaml-language-server:') ? lines.slice(1) : lines;
  return [schemaLine(cloud), ...rest].join('\n');
}

/** The JSON Schema of a cloud's Pulumi.<stack>.yaml, for editors (yaml-language-server). */
export function editorSchema(cloud: Cloud): string {
  const stack = schemasFor(cloud).stack;
  const json = z.toJSONSchema(stack, {
    target: 'draft-7',
    override: ({ zodSchema, jsonSchema }) => {
      const words = KEY_DOCS.get(zodSchema as unknown as z.ZodType);
      if (!words) return;
      jsonSchema['description'] = `${valueWords(words, cloud)}. ${plain(words.meaning)}`;
    },
  }) as { properties: Record<string, unknown>; required?: string[] };
  dropOtherClouds(json, cloud);
  const keys = Object.keys(json.properties);
  const config = {
    type: 'object',
    description: `Stack config. The ${CONFIG_NAMESPACE}: keys are the store spec (docs/config.md); other namespaces are the providers' own.`,
    properties: Object.fromEntries(keys.map((key) => [`${CONFIG_NAMESPACE}:${key}`, json.properties[key]])),
    required: (json.required ?? []).map((key) => `${CONFIG_NAMESPACE}:${key}`),
    propertyNames: {
      anyOf: [
        { enum: keys.map((key) => `${CONFIG_NAMESPACE}:${key}`) },
        { pattern: `^(?!${CONFIG_NAMESPACE}:)` },
      ],
    },
  };
  const document = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `Pulumi.<stack>.yaml of ${STACK_FOLDERS[cloud]}`,
    description: `Generated from libs/config/src/schema.ts by ${GENERATE_COMMAND}; edit there. The same limits the stack validates with on ${CLOUD_NAMES[cloud]}.`,
    type: 'object',
    properties: { config },
  };
  return prettierJson(document, 0, 0) + '\n';
}

/** Removes, from the stack and store blocks, the keys another cloud alone honours. */
function dropOtherClouds(json: { properties: Record<string, unknown> }, cloud: Cloud): void {
  const properties = (node: unknown): Record<string, unknown> | undefined =>
    (node as { properties?: Record<string, unknown> } | undefined)?.properties;
  const drop = (block: Record<string, unknown> | undefined, scope: 'stack' | 'store', prefix: string) => {
    if (!block) return;
    for (const key of Object.keys(block)) {
      const clouds = cloudsOf(scope, `${prefix}${key}`);
      if (clouds && !clouds.includes(cloud)) {
        delete block[key];
        continue;
      }
      if (scope === 'store') drop(properties(block[key]), 'store', `${prefix}${key}.`);
    }
  };
  drop(json.properties, 'stack', '');
  const stores = json.properties['stores'] as { items?: unknown } | undefined;
  drop(properties(stores?.items), 'store', '');
}

/**
 * JSON as prettier prints it: objects one key a line, arrays of scalars on one line when the line fits in
 * 110 columns (.prettierrc.json), else one entry a line. `used`: columns before the value on its line.
 */
function prettierJson(value: unknown, indent: number, used: number): string {
  const pad = ' '.repeat(indent + 2);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const scalars = value.every((item) => item === null || typeof item !== 'object');
    const flat = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    if (scalars && used + flat.length + 1 <= 110) return flat;
    const items = value.map((item) => pad + prettierJson(item, indent + 2, pad.length));
    return `[\n${items.join(',\n')}\n${' '.repeat(indent)}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => {
      const head = `${pad}${JSON.stringify(key)}: `;
      return head + prettierJson(item, indent + 2, head.length);
    });
    return `{\n${lines.join(',\n')}\n${' '.repeat(indent)}}`;
  }
  return JSON.stringify(value);
}

/** Every generated file, as it should be, from the files as they are (`read`, by repo-relative path). */
export function generatedFiles(
  read: (path: string) => string,
  stackConfigs: (folder: string) => readonly string[],
): { path: string; content: string }[] {
  const files = [{ path: 'docs/config.md', content: configDoc(read('docs/config.md')) }];
  for (const cloud of CLOUDS) {
    const folder = STACK_FOLDERS[cloud];
    files.push({ path: schemaFile(cloud), content: editorSchema(cloud) });
    const project = `${folder}/Pulumi.yaml`;
    files.push({ path: project, content: pulumiProject(read(project), cloud) });
    for (const name of stackConfigs(folder)) {
      const path = `${folder}/${name}`;
      files.push({ path, content: stackConfigFile(read(path), cloud) });
    }
  }
  return files;
}

/** The stack config files of a folder's listing: Pulumi.<stack>.yaml. */
export function stackConfigNames(names: readonly string[]): string[] {
  return names.filter((name) => /^Pulumi\.[^.]+\.ya?ml$/.test(name)).sort();
}
