import { parsePolicyConfig, PolicyConfigError } from './policy-config';

const known = ['standard-tags', 'protect-data-in-prod'];

describe('policy config file', () => {
  it('accepts an advisory override with a reason, and ignores $comment', () => {
    const config = parsePolicyConfig(
      JSON.stringify({
        $comment: 'x',
        'standard-tags': { enforcementLevel: 'advisory', reason: 'tags migrate in Q3' },
      }),
      'policy-config.json',
      known,
    );
    expect(config.entries).toEqual({
      'standard-tags': { enforcementLevel: 'advisory', reason: 'tags migrate in Q3' },
    });
  });

  it.each([
    [
      { 'standard-tag': { enforcementLevel: 'disabled', reason: 'a good long reason' } },
      "'standard-tag' is not a policy of the pack",
    ],
    [
      { 'standard-tags': { enforcementLevel: 'off', reason: 'a good long reason' } },
      'standard-tags.enforcementLevel: got "off"; allowed: mandatory | advisory | disabled',
    ],
    [
      { 'standard-tags': { enforcementLevel: 'disabled' } },
      'standard-tags.reason: say why the rule is disabled here',
    ],
  ])('refuses %j', (raw, message) => {
    expect(() => parsePolicyConfig(JSON.stringify(raw), 'policy-config.json', known)).toThrow(
      PolicyConfigError,
    );
    expect(() => parsePolicyConfig(JSON.stringify(raw), 'policy-config.json', known)).toThrow(message);
  });
});
