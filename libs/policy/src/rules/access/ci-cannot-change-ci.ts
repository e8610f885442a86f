import { awsCiChangesOf } from '@checkpoints/analysis';
import { stackRule } from '../define';
import { ciJudged } from './analysis';

export const ciCannotChangeCi = stackRule({
  name: 'ci-cannot-change-ci',
  description:
    "No CI identity can change a CI identity's policies, attachments, boundary, trust or credentials, rewrite or create an identity a perimeter exempts, or hand out a key's admin",
  source:
    'Checkpoint CI rights (CI never widens CI, never steps into a perimeter exemption); MITRE ATT&CK T1098 (account manipulation), T1484 (domain or tenant policy modification)',
  validate: async (args, report, evaluation) => {
    const context = evaluation().context(args);
    if (!ciJudged(context, report)) return;
    for (const change of await awsCiChangesOf(context)) {
      report(`${change.identity.label} can change ${change.target}: ${change.permission}`);
    }
  },
});
