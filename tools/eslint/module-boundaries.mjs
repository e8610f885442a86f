/**
 * Module boundaries from nx project tags, as ESLint `no-restricted-imports` blocks (the nx ESLint plugin's
 * module-boundary rule is not published for this nx major, and nx and its plugins stay at one version).
 *
 * - A project tagged `type:stack` or `type:bootstrap` is deploy-time code: what `pulumi up` loads. Its
 *   program (everything but its tests) may import only the libs tagged `scope:deploy-time`; every other
 *   workspace lib (the analyses, the policy pack, the offline engine) is refused by package name and by
 *   relative path.
 * - Libs never import stacks or the bootstrap.
 *
 * The tags live in each project's project.json, so `nx show projects --with-tag scope:deploy-time` lists
 * what deploy-time code may import.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const DEPLOY_TIME_CODE = ['type:stack', 'type:bootstrap'];
const DEPLOY_TIME_LIB = 'scope:deploy-time';

/** Every workspace project: its folder (relative to the root), package name and nx tags. */
export function workspaceProjects(root) {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const folders = workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern],
  );
  return folders
    .filter(
      (folder) =>
        existsSync(join(root, folder, 'project.json')) && existsSync(join(root, folder, 'package.json')),
    )
    .map((folder) => ({
      folder: relative(root, join(root, folder)),
      packageName: JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).name,
      tags: JSON.parse(readFileSync(join(root, folder, 'project.json'), 'utf8')).tags ?? [],
    }));
}

const hasAny = (tags, wanted) => wanted.some((tag) => tags.includes(tag));

/** ESLint flat-config blocks enforcing the boundaries above. */
export function moduleBoundaryConfigs(root) {
  const projects = workspaceProjects(root);
  const deployTimeCode = projects.filter(({ tags }) => hasAny(tags, DEPLOY_TIME_CODE));
  const refusedAtDeploy = projects.filter(
    ({ tags }) => tags.includes('type:lib') && !tags.includes(DEPLOY_TIME_LIB),
  );
  const allowedAtDeploy = projects
    .filter(({ tags }) => tags.includes(DEPLOY_TIME_LIB))
    .map((p) => p.packageName);
  const deployMessage = `deploy-time code (stacks, bootstrap) imports only the libs tagged ${DEPLOY_TIME_LIB}: ${allowedAtDeploy.join(', ')}.`;
  const libsNeverImport = {
    group: [
      ...deployTimeCode.map(({ packageName }) => packageName),
      ...deployTimeCode.map(({ folder }) => `**/${folder}/**`),
    ],
    message: 'libs never import stacks or the bootstrap.',
  };
  const noCloudSdk = {
    group: ['@pulumi/*'],
    message: 'naming, tagging, config, translate, render and analysis import no cloud SDK.',
  };
  const sdkFree = [
    'libs/naming',
    'libs/tagging',
    'libs/config',
    'libs/translate',
    'libs/render',
    'libs/analysis',
  ];
  return [
    {
      files: ['libs/**/*.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns: [libsNeverImport] }] },
    },
    {
      files: sdkFree.map((folder) => `${folder}/**/*.ts`),
      rules: { 'no-restricted-imports': ['error', { patterns: [noCloudSdk, libsNeverImport] }] },
    },
    ...deployTimeCode.map(({ folder }) => ({
      files: [`${folder}/**/*.ts`],
      ignores: [`${folder}/tests/**`, `${folder}/**/*.spec.ts`, `${folder}/**/*.test.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: [
                  ...refusedAtDeploy.flatMap(({ packageName }) => [packageName, `${packageName}/**`]),
                  ...refusedAtDeploy.map(({ folder: lib }) => `**/${lib}/**`),
                ],
                message: deployMessage,
              },
            ],
          },
        ],
      },
    })),
  ];
}
