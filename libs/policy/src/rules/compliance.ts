import { complianceOf } from '@checkpoints/analysis';
import { storesOf } from '@checkpoints/render';
import { stackRule, type RuleSource, type SourcedPolicy } from './define';

export interface ComplianceRule extends RuleSource {
  name: string;
  description: string;
}

/**
 * A rule that enforces the compliance checks naming it (`rule` of a check in libs/analysis/src/compliance): a
 * store whose check fails, with no accepted exception, is a violation, with the controls it fails and what the
 * check found. The view in the synth JSON and the pack judge through the same check, so they cannot disagree.
 */
export function complianceRule(rule: ComplianceRule): SourcedPolicy {
  return stackRule({
    ...rule,
    validate: async (args, report, evaluation) => {
      const context = evaluation().context(args);
      const urns = new Map(
        storesOf({ resources: context.resources }).map((store) => [store.name, store.urn]),
      );
      const analysis = await complianceOf(context);
      for (const store of analysis.stores) {
        const failing = store.controls.filter((each) => each.rule === rule.name && each.verdict === 'fail');
        const byDetail = new Map<string, string[]>();
        for (const each of failing)
          byDetail.set(each.detail, [...(byDetail.get(each.detail) ?? []), each.control]);
        for (const [detail, controls] of byDetail) {
          report(`store ${store.store}: ${detail} (${controls.join(', ')})`, urns.get(store.store));
        }
      }
    },
  });
}
