import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseDocument } from 'yaml';

/** A problem with the files a stack is loaded from: exit 2, message only. */
export class StackFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackFileError';
  }
}

export interface PulumiProject {
  /** Folder holding Pulumi.yaml. */
  dir: string;
  name: string;
  /** Absolute path of the program entry (file or folder), as Pulumi resolves `main`. */
  main: string;
  typescript: boolean;
  /** Where Pulumi.<stack>.yaml files live (`stackConfigDir`, default: the project folder). */
  stackConfigDir: string;
  /** Project-level config from Pulumi.yaml: `value`s and project keys' `default`s. */
  projectConfig: Record<string, unknown>;
}

export interface StackConfig {
  file: string;
  config: Record<string, string>;
  secretKeys: string[];
}

function parseYamlFile(file: string): unknown {
  if (!existsSync(file)) throw new StackFileError(`${file}: file not found`);
  const document = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: true });
  const error = document.errors[0];
  if (error) {
    const position = error.linePos?.[0];
    const where = position ? `:${position.line}:${position.col}` : '';
    throw new StackFileError(`${file}${where}: invalid YAML: ${error.message.split('\n')[0]}`);
  }
  return document.toJS();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function readProject(dir: string): PulumiProject {
  const file = ['Pulumi.yaml', 'Pulumi.yml'].map((name) => join(dir, name)).find((path) => existsSync(path));
  if (!file) throw new StackFileError(`no Pulumi.yaml in ${dir}: run synth from a Pulumi project folder`);
  const project = parseYamlFile(file);
  if (!isRecord(project) || typeof project['name'] !== 'string') {
    throw new StackFileError(`${file}: 'name' is required (the Pulumi project name)`);
  }
  const runtime = project['runtime'];
  const runtimeName = isRecord(runtime) ? runtime['name'] : runtime;
  if (runtimeName !== 'nodejs') {
    throw new StackFileError(
      `${file}: runtime is ${JSON.stringify(runtimeName)}; synth renders nodejs programs only`,
    );
  }
  const options = isRecord(runtime) && isRecord(runtime['options']) ? runtime['options'] : {};
  const main = typeof project['main'] === 'string' ? project['main'] : defaultMain(dir);
  const stackConfigDir = typeof project['stackConfigDir'] === 'string' ? project['stackConfigDir'] : '.';
  return {
    dir,
    name: project['name'],
    main: resolve(dir, main),
    typescript: options['typescript'] !== false,
    stackConfigDir: resolve(dir, stackConfigDir),
    projectConfig: readProjectConfig(file, project['name'], project['config']),
  };
}

/** Pulumi's own entry rule: `main` of package.json, else the folder (index). */
function defaultMain(dir: string): string {
  const packageFile = join(dir, 'package.json');
  if (existsSync(packageFile)) {
    const manifest = JSON.parse(readFileSync(packageFile, 'utf8')) as { main?: string };
    if (manifest.main) return manifest.main;
  }
  return '.';
}

/** Applies the CLI's own rule: only keys of the project's namespace may carry a type or default. */
function readProjectConfig(file: string, projectName: string, block: unknown): Record<string, unknown> {
  if (block === undefined || block === null) return {};
  if (!isRecord(block)) throw new StackFileError(`${file}: 'config' must be a mapping of keys`);
  const values: Record<string, unknown> = {};
  for (const [key, declaration] of Object.entries(block)) {
    const namespace = key.includes(':') ? key.slice(0, key.indexOf(':')) : projectName;
    const fullKey = key.includes(':') ? key : `${projectName}:${key}`;
    if (!isRecord(declaration)) {
      values[fullKey] = declaration;
      continue;
    }
    if (namespace !== projectName && ('type' in declaration || 'default' in declaration)) {
      throw new StackFileError(
        `${file}: config key '${key}' is not namespaced by the project '${projectName}' and may not define a type or default (the Pulumi CLI refuses it); set it per stack instead`,
      );
    }
    if ('value' in declaration) values[fullKey] = declaration['value'];
    else if ('default' in declaration) values[fullKey] = declaration['default'];
  }
  return values;
}

export function stackConfigFile(project: PulumiProject, stack: string): string {
  for (const extension of ['yaml', 'yml']) {
    const file = join(project.stackConfigDir, `Pulumi.${stack}.${extension}`);
    if (existsSync(file)) return file;
  }
  const known = existsSync(project.stackConfigDir)
    ? readdirSync(project.stackConfigDir)
        .map((name) => /^Pulumi\.(.+)\.ya?ml$/.exec(name)?.[1])
        .filter((name): name is string => name !== undefined)
    : [];
  const where = relative(process.cwd(), project.stackConfigDir) || '.';
  throw new StackFileError(
    `no stack config file Pulumi.${stack}.yaml in ${where}; stacks with a config file here: ${known.join(', ') || 'none'} (or pass --config-file=PATH)`,
  );
}

/** Reads a stack config file into the flat `namespace:key` -> string map Pulumi hands to programs. */
export function readStackConfig(file: string, project: PulumiProject): StackConfig {
  const document = parseYamlFile(file);
  const block = isRecord(document) ? document['config'] : undefined;
  if (block !== undefined && block !== null && !isRecord(block)) {
    throw new StackFileError(`${file}: 'config' must be a mapping of keys`);
  }
  const config: Record<string, string> = {};
  const secretKeys: string[] = [];
  const entries = { ...project.projectConfig, ...qualify(block ?? {}, project.name) };
  for (const [key, value] of Object.entries(entries)) {
    if (isRecord(value) && typeof value['secure'] === 'string') {
      // Secrets cannot be decrypted offline: the program sees a placeholder, and outputs mask it.
      config[key] = '[secret]';
      secretKeys.push(key);
    } else {
      config[key] = typeof value === 'string' ? value : configText(value);
    }
  }
  return { file, config, secretKeys };
}

const BEYOND_RANGE = '__synth_number_beyond_range__';

/**
 * A structured value as the JSON text Pulumi hands to programs. YAML reads a number beyond the double range
 * (`1e400`) as Infinity, which JSON would turn into null; it stays a number beyond the range instead, so the
 * program's validation can say so.
 */
function configText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item === Infinity || item === -Infinity ? `${BEYOND_RANGE}${item < 0 ? '-' : ''}` : item,
  ).replace(new RegExp(`"${BEYOND_RANGE}(-?)"`, 'g'), '$11e400');
}

function qualify(block: Record<string, unknown>, projectName: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(block).map(([key, value]) => [key.includes(':') ? key : `${projectName}:${key}`, value]),
  );
}

/** The repository root (the folder holding nx.json), for default output paths. */
export function workspaceRoot(from: string): string {
  let dir = resolve(from);
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return resolve(from);
    dir = parent;
  }
  return dir;
}
