import { stackRule } from '../define';
import { ciJudged, missingRightsOf } from './analysis';

export const ciDeployRights = stackRule({
  name: 'ci-deploy-rights',
  description:
    "The environment's deploy identity holds every permission a deploy of each rendered resource needs (create, update, delete, read, and the linked authorizations), and the preview identity every read; what each call's API demands besides holds when the call is made (a key role assigned in the same deploy is in effect, the resource providers are registered); each of those calls reaches its API through the store's perimeter from where CI runs (checkpoints:ciRunners)",
  source:
    'libs/analysis rights tables (AWS Service Authorization Reference; GCP and Azure permission references)',
  validate: async (args, report, evaluation) => {
    if (!ciJudged(evaluation().context(args), report)) return;
    for (const missing of (await missingRightsOf(args, evaluation())) ?? []) {
      report(
        missing.unmet
          ? `${missing.resource}: its ${missing.operation} call fails: ${missing.unmet}`
          : missing.blockedBy
            ? `${missing.resource}: the ${missing.operation} call ${missing.permission} of ${missing.identity} on ${missing.on} cannot reach the API from where CI runs (checkpoints:ciRunners): ${missing.blockedBy}`
            : `${missing.resource}: ${missing.identity} lacks ${missing.permission} on ${missing.on}, which its ${missing.operation} needs`,
      );
    }
  },
});
