/** Who owns a stack's resources and what they hold: the inputs of the standard tag set. */
export interface TagContext {
  owner: string;
  costCenter: string;
  environment: string;
  dataClassification: string;
  project: string;
  stack: string;
  /** Absent for resources shared by every store of a stack, such as an Azure resource group. */
  store?: string;
}

/** Tag key to value, before or after a cloud's normalisation. */
export type Tags = Record<string, string>;

/** The tags every taggable resource carries, in cloud-neutral form: normalise them with awsTags, gcpLabels or azureTags. */
export function standardTags(ctx: TagContext): Tags {
  return {
    owner: ctx.owner,
    'cost-center': ctx.costCenter,
    environment: ctx.environment,
    'data-classification': ctx.dataClassification,
    'managed-by': 'pulumi',
    'pulumi-project': ctx.project,
    'pulumi-stack': ctx.stack,
    ...(ctx.store === undefined ? {} : { 'checkpoint-store': ctx.store }),
  };
}
