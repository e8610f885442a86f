import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import azureRoles from '../../data/azure-roles.json';
import gcpRoles from '../../data/gcp-roles.json';

/**
 * Every role the code assigns (bootstrap, the stacks, the translate lib) is in the
 * vendored role data, so the access analysis knows what it grants; Azure roles by the name and GUID
 * the code pairs, which must be the pair the published definitions hold.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const SOURCES = [
  'bootstrap/src',
  'stacks/aws-s3/src',
  'stacks/gcp-gcs/src',
  'stacks/azure-adls/src',
  'libs/translate/src',
  'libs/policy/src',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && entry.name !== 'testing.ts'
      ? [path]
      : [];
  });
}

const code = SOURCES.flatMap(sourceFiles).map(
  (file) => [file, readFileSync(join(ROOT, file), 'utf8')] as const,
);

describe('vendored role data', () => {
  it('has the source and date of the copy it came from', () => {
    for (const data of [gcpRoles, azureRoles]) {
      expect(data.source).toMatch(/^github\.com\/iann0036\/iam-dataset@[0-9a-f]{40} /);
      expect(data.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('holds every GCP role the code names', () => {
    const named = [
      ...new Set(code.flatMap(([, text]) => [...text.matchAll(/'(roles\/[A-Za-z.]+)'/g)].map((m) => m[1]))),
    ];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((role) => !(role! in gcpRoles.roles))).toEqual([]);
  });

  it('holds every Azure built-in role the code names, under the GUID the code pairs it with', () => {
    const roles = azureRoles.roles as Record<string, { roleName: string }>;
    const pairs = code.flatMap(([file, text]) =>
      [
        ...text.matchAll(
          /'([A-Z][A-Za-z ]+)': '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})'/g,
        ),
      ].map((m) => [file, m[1], m[2]] as const),
    );
    expect(pairs.length).toBeGreaterThan(5);
    expect(pairs.filter(([, name, guid]) => roles[guid!]?.roleName !== name)).toEqual([]);
  });
});
