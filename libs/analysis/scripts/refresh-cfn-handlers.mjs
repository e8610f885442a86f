#!/usr/bin/env node
/**
 * Re-vendors the handler permissions of AWS's CloudFormation resource provider schemas (each schema's
 * `handlers.{create,read,update,delete,list}.permissions`) for the CloudFormation types that correspond to the
 * rights model's AWS rows, from a clone of github.com/pulumi/pulumi-aws-native, whose
 * `aws-cloudformation-schema/` folder holds the registry schemas as CloudFormation publishes them. Only each
 * schema's `typeName` and handler permissions are kept. Run it with a newer clone, review the diff, commit it:
 * `tests/rights/cloudformation.spec.ts` then names every difference a row no longer explains.
 *
 *   node libs/analysis/scripts/refresh-cfn-handlers.mjs --from=/path/to/pulumi-aws-native [--rev=HEAD]
 *
 * `--from` may be a bare repository or a work tree; the schemas are read at `--rev` with `git show`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'data', 'cfn-handlers.json');
const { values } = parseArgs({ options: { from: { type: 'string' }, rev: { type: 'string' } } });
if (!values.from) throw new Error('--from=<clone of github.com/pulumi/pulumi-aws-native> is required');
const from = resolve(values.from);
const rev = values.rev ?? 'HEAD';

/** The CloudFormation counterparts of the rights model's AWS rows (tests/rights/cloudformation.spec.ts). */
const TYPES = [
  'AWS::Backup::BackupPlan',
  'AWS::Backup::BackupSelection',
  'AWS::CloudTrail::Trail',
  'AWS::GuardDuty::MalwareProtectionPlan',
  'AWS::IAM::Role',
  'AWS::IAM::RolePolicy',
  'AWS::KMS::Alias',
  'AWS::KMS::Key',
  'AWS::S3::Bucket',
  'AWS::S3::BucketPolicy',
  'AWS::S3Express::BucketPolicy',
  'AWS::S3Express::DirectoryBucket',
];
const OPERATIONS = ['create', 'read', 'update', 'delete', 'list'];

const git = (...args) =>
  execFileSync('git', ['-C', from, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const commit = git('rev-parse', `${rev}^{commit}`).trim();

const types = {};
for (const typeName of TYPES) {
  // The schema's file name: the type in lower case, `::` as `-` (aws-s3-bucket.json).
  const file = `aws-cloudformation-schema/${typeName.toLowerCase().replaceAll('::', '-')}.json`;
  const schema = JSON.parse(git('show', `${commit}:${file}`));
  if (schema.typeName !== typeName) throw new Error(`${file}: typeName ${schema.typeName}, not ${typeName}`);
  const handlers = {};
  for (const operation of OPERATIONS) {
    const permissions = schema.handlers?.[operation]?.permissions;
    if (permissions) handlers[operation] = permissions;
  }
  const changed = git('log', '-1', '--format=%H %cs', commit, '--', file).trim().split(' ');
  types[typeName] = { file, lastChanged: { commit: changed[0], date: changed[1] }, handlers };
}

writeFileSync(
  out,
  JSON.stringify(
    {
      source: `github.com/pulumi/pulumi-aws-native@${commit}`,
      date: git('log', '-1', '--format=%cs', commit).trim(),
      types,
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${out}`);
