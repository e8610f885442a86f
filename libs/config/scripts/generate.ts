/*
 * Writes the files generated from the store spec's schema (libs/config/src/generate.ts lists them).
 * Run from the repository: npm run config:generate (nx: npx nx run config:generate).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedFiles, stackConfigNames } from '../src/generate';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : '');
const files = generatedFiles(read, (folder) => stackConfigNames(readdirSync(join(root, folder))));
let written = 0;
for (const { path, content } of files) {
  if (read(path) === content) continue;
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  written += 1;
  console.log(`wrote ${path}`);
}
console.log(`${files.length} generated files, ${written} rewritten`);
