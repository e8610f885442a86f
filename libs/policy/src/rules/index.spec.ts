import { baselinePolicies } from '.';
import { commonPolicies } from './common';
import { docsPageOf, documentedRules, sourceDrift } from '../../testing/rules';

/** Where the rules are documented: the common ones first, then each cloud's, as the pack orders them. */
const PAGES = ['policies.md', 'policies-aws.md', 'policies-gcp.md', 'policies-azure.md'];

describe('baselinePolicies', () => {
  it.each(baselinePolicies.map((policy) => [policy.name, policy] as const))(
    '%s has a source and is listed on its docs page with a source',
    (name, policy) => {
      expect(policy.source.trim()).not.toBe('');
      const row = documentedRules(docsPageOf(name)).find((rule) => rule.name === name);
      expect(row).toBeDefined();
      expect(row?.source.trim()).not.toBe('');
    },
  );

  it('are listed on the docs pages with the source each rule reports', () => {
    const rows = baselinePolicies.map((policy) =>
      documentedRules(docsPageOf(policy.name)).find((rule) => rule.name === policy.name),
    );
    expect(sourceDrift(baselinePolicies, rows)).toEqual([]);
  });

  it('are every rule the docs list, each once, in their order; the common page lists the common rules', () => {
    const names = baselinePolicies.map((policy) => policy.name);
    expect(new Set(names).size).toBe(names.length);
    expect(PAGES.flatMap((page) => documentedRules(page).map((rule) => rule.name))).toEqual(names);
    expect(documentedRules('policies.md').map((rule) => rule.name)).toEqual(
      commonPolicies.map((policy) => policy.name),
    );
  });
});
