import type { Cloud } from '@checkpoints/config';
import { STACK_PROJECTS } from './names';

/**
 * Where Pulumi's self-managed ("DIY") backend keeps a stack's files, as object names relative to the
 * bucket or container root (pulumi/pulumi pkg/backend/diy: `stackPath` .pulumi/stacks/<project>/<stack>.json,
 * with a `.bak` copy and an optional `.gz`; `historyDir` .pulumi/history/<project>/<stack>/; `backupDir`
 * .pulumi/backups/<project>/<stack>/; `lockPath` .pulumi/locks/<organization/project/stack>/<id>.json,
 * the organization of a DIY stack being `organization`; and the backend's .pulumi/meta.yaml). The same
 * layout on every cloud: s3://, gs:// and azblob:// are one backend over gocloud.dev blob buckets.
 * `stack` '*' stands for every stack of the cloud's project, as a pattern in an S3 ARN.
 */
export function stateObjects(cloud: Cloud, stack: string) {
  const project = STACK_PROJECTS[cloud];
  return {
    meta: '.pulumi/meta.yaml',
    stack: `.pulumi/stacks/${project}/${stack}`,
    history: `.pulumi/history/${project}/${stack}`,
    backups: `.pulumi/backups/${project}/${stack}`,
    locks: `.pulumi/locks/organization/${project}/${stack}`,
  };
}

/**
 * Object-name prefixes of the state a CI identity may use, for clouds whose conditions match prefixes
 * (Cloud Storage IAM Conditions, Azure ABAC): the preview reads every stack of the cloud's project and
 * takes their locks; a deploy identity reads the backend's meta.yaml and manages its own stack's files.
 */
export function statePrefixes(cloud: Cloud, environment?: string): { read: string[]; write: string[] } {
  if (environment === undefined) {
    const project = stateObjects(cloud, '');
    return { read: [project.meta, project.stack, project.history], write: [project.locks] };
  }
  const own = stateObjects(cloud, environment);
  return {
    read: [own.meta],
    write: [`${own.stack}.json`, `${own.history}/`, `${own.backups}/`, `${own.locks}/`],
  };
}
