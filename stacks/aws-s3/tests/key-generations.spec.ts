import { awsDefaultKeyPolicy, awsRequestAllowed, type AwsPrincipal } from '@checkpoints/analysis';
import type { Snapshot } from '@checkpoints/synth';
import { ACCOUNT, documentOf, renderStack, resource } from './render-stack';

/**
 * After a key rotation (keyGeneration 2) the checkpoints written under generation 1 are still encrypted
 * with that key: the store's roles must still decrypt it, through S3, found by its retained alias.
 */
const store = { name: 'llm-pretrain', dataClassification: 'confidential', encryption: 'customer-managed' };
const OLD_KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/0000aaaa-0000-4000-a000-000000000001`;

function role(snapshot: Snapshot, purpose: 'writer' | 'reader'): AwsPrincipal {
  return {
    principal: { id: purpose, label: purpose, kind: 'store-identity' },
    arn: `arn:aws:iam::${ACCOUNT}:role/${purpose}`,
    policies: [
      {
        name: 'access',
        policy: documentOf(resource(snapshot, 'rolePolicy', `llm-pretrain-${purpose}-access`)),
      },
    ],
  };
}

/** kms:Decrypt on a key that is not the current one, as S3 asks for it when reading an old object. */
const decryptOld = (aliases: string[]) => ({
  action: 'kms:Decrypt',
  resource: OLD_KEY,
  // The stack keeps AWS's default key policy, which hands the key to the account's IAM policies.
  resourcePolicy: awsDefaultKeyPolicy('aws', ACCOUNT),
  context: { 'kms:ViaService': 's3.us-east-1.amazonaws.com', 'kms:ResourceAliases': aliases },
});

describe('key generations', () => {
  let first: Snapshot;
  let second: Snapshot;
  let generation1Alias: string;
  beforeAll(async () => {
    first = await renderStack({ environment: 'dev', stores: [store] });
    second = await renderStack({ environment: 'dev', stores: [{ ...store, keyGeneration: 2 }] });
    generation1Alias = resource(first, 'alias', 'llm-pretrain-key-alias').inputs['name'] as string;
  });

  it('generation 2 takes new logical and alias names; generation 1 keeps the ones it always had', () => {
    expect(resource(second, 'alias', 'llm-pretrain-key-alias-gen2').inputs['name']).toBe(
      `${generation1Alias}-gen2`,
    );
    expect(generation1Alias).toMatch(/^alias\/checkpoints-aws-dev-llm-pretrain-[0-9a-z]+$/);
  });

  it.each(['writer', 'reader'] as const)(
    'the %s still decrypts, through S3, the generation-1 key found by its alias',
    async (purpose) => {
      expect(await awsRequestAllowed(role(second, purpose), decryptOld([generation1Alias]))).toBeDefined();
      expect(
        await awsRequestAllowed(role(second, purpose), {
          ...decryptOld([generation1Alias]),
          context: { 'kms:ResourceAliases': [generation1Alias] },
        }),
      ).toBeUndefined();
    },
  );

  it('but no other key of the account, and at generation 1 no earlier key at all', async () => {
    expect(
      await awsRequestAllowed(role(second, 'writer'), decryptOld(['alias/someone-elses'])),
    ).toBeUndefined();
    expect(await awsRequestAllowed(role(first, 'writer'), decryptOld([generation1Alias]))).toBeUndefined();
  });
});
