import { z } from 'zod';
import { DATA_CLASSIFICATIONS, ENCRYPTIONS, ENVIRONMENTS, STORE_NAME_PATTERN, TIERS } from './spec';

/** A store renamed more often than this is better migrated to a new store. */
export const MAX_FORMER_NAMES = 10;

/** Upper bound for any age in days: 100 years, far beyond any checkpoint's useful life. */
export const MAX_DAYS = 36_500;

const days = (min: number, max = MAX_DAYS) => z.number().int().min(min).max(max);
const principals = z.array(z.string().min(1)).max(100);

/** Every key of the retention block; each is optional in the file and defaulted after validation. */
export const retentionSchema = z.strictObject({
  keepNoncurrentVersions: z.number().int().min(0).max(100).optional(),
  noncurrentExpireDays: days(0).optional(),
  coolAfterDays: days(0).optional(),
  archiveAfterDays: days(0).optional(),
  expireAfterDays: days(0).optional(),
  abortIncompleteUploadDays: days(1, 365).optional(),
  softDeleteDays: days(7, 365).optional(),
});

export const accessSchema = z.strictObject({
  writers: principals.optional(),
  readers: principals.optional(),
});

export const storeSchema = z.strictObject({
  name: z.string().regex(STORE_NAME_PATTERN),
  formerNames: z.array(z.string().regex(STORE_NAME_PATTERN)).max(MAX_FORMER_NAMES).optional(),
  dataClassification: z.enum(DATA_CLASSIFICATIONS),
  tier: z.enum(TIERS).optional(),
  zone: z.string().min(1).optional(),
  location: z.string().min(1).optional(),
  encryption: z.enum(ENCRYPTIONS).optional(),
  protect: z.boolean().optional(),
  retention: retentionSchema.optional(),
  access: accessSchema.optional(),
});

/** The `checkpoints:` namespace, keys without the prefix. */
export const stackSchema = z.strictObject({
  environment: z.enum(ENVIRONMENTS),
  owner: z.string().min(1).max(63),
  costCenter: z.string().min(1).max(63),
  resourceGroupName: z.string().min(1).max(90).optional(),
  stores: z.array(storeSchema).min(1),
});

/** The stack keys with the stores left unchecked, so each store can be validated on its own. */
export const stackShellSchema = stackSchema.extend({ stores: z.array(z.unknown()).min(1) });

export type RawStackShell = z.infer<typeof stackShellSchema>;
export type RawStore = z.infer<typeof storeSchema>;

/** Known keys per object path shape, for "did you mean" hints. */
export const KNOWN_KEYS = {
  stack: Object.keys(stackSchema.shape),
  store: Object.keys(storeSchema.shape),
  retention: Object.keys(retentionSchema.shape),
  access: Object.keys(accessSchema.shape),
} as const;

/** What each constrained key allows, in the words a user needs to fix it. */
export const ALLOWED: Record<string, string> = {
  environment: `one of ${ENVIRONMENTS.join(' | ')}`,
  owner: 'a non-empty string of at most 63 characters (the owning team, used as a tag)',
  costCenter: 'a non-empty string of at most 63 characters (used as a tag)',
  resourceGroupName: 'an existing Azure resource group name (1-90 characters)',
  stores: 'a list of at least one store, each a block with at least name and dataClassification',
  retention: `a block of retention keys (${KNOWN_KEYS.retention.join(', ')}), e.g. retention: { coolAfterDays: 30 }`,
  access: `a block with the lists ${KNOWN_KEYS.access.join(' and ')}, e.g. access: { readers: [PRINCIPAL] }`,
  name: `a store name matching ${STORE_NAME_PATTERN.source} (lowercase letter first, 2-31 characters), unique in the stack`,
  formerNames: `a list of at most ${MAX_FORMER_NAMES} earlier names of this store, oldest first, each matching ${STORE_NAME_PATTERN.source}`,
  dataClassification: `one of ${DATA_CLASSIFICATIONS.join(' | ')}`,
  tier: `one of ${TIERS.join(' | ')}`,
  zone: 'a non-empty zone identifier',
  location: 'a non-empty location',
  encryption: `one of ${ENCRYPTIONS.join(' | ')}`,
  protect: 'true or false',
  keepNoncurrentVersions: 'a whole number from 0 to 100',
  noncurrentExpireDays: `a whole number of days from 0 (never) to ${MAX_DAYS}`,
  coolAfterDays: `a whole number of days from 0 (never) to ${MAX_DAYS}`,
  archiveAfterDays: `a whole number of days from 0 (never) to ${MAX_DAYS}`,
  expireAfterDays: `a whole number of days from 0 (never) to ${MAX_DAYS}`,
  abortIncompleteUploadDays: 'a whole number of days from 1 to 365',
  softDeleteDays: 'a whole number of days from 7 to 365',
  writers: 'a list of principal strings (at most 100)',
  readers: 'a list of principal strings (at most 100)',
};

/** What one entry of a list key allows, where the list's own rule would not say it. */
export const ALLOWED_ITEM: Record<string, string> = {
  stores: 'a store: a block with at least name and dataClassification',
  writers: "a principal in the cloud's own format (a non-empty string)",
  readers: "a principal in the cloud's own format (a non-empty string)",
};
