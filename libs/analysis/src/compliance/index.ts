import { storesOf } from '@checkpoints/render';
import { accessAnalysisOf } from '../access';
import { environmentOf } from '../access/model';
import { contextMemo, type AnalysisContext } from '../context';
import { retentionOf } from '../retention';
import { AWS_COMPLIANCE, awsSubjectOf } from './aws';
import { AZURE_COMPLIANCE, azureSubjectOf } from './azure';
import { GCP_COMPLIANCE, gcpSubjectOf } from './gcp';
import { complianceSummary, judgeStore, type ComplianceAnalysis, type StoreCompliance } from './model';

export * from './controls';
export * from './model';
export {
  AWS_COMPLIANCE,
  AUDIT_LOG_PROTECTED_ACTIONS,
  awsBucketOf,
  type AwsBucket,
  type AwsSubject,
} from './aws';
export { GCP_COMPLIANCE, type GcpSubject } from './gcp';
export { AZURE_COMPLIANCE, type AzureSubject } from './azure';

/**
 * Every store of the context's render judged against the benchmark controls of its cloud: the verdicts come
 * from the analyses where one exists (access grants, the retention replay, the trail selectors, the storage
 * firewall), otherwise from the rendered field each check names. Worked out once per context.
 */
export const complianceOf: (context: AnalysisContext) => Promise<ComplianceAnalysis> = contextMemo(
  async (context) => {
    const render = { resources: context.resources };
    const access = await accessAnalysisOf(context);
    const retention = retentionOf(render);
    const stores: StoreCompliance[] = storesOf(render).map((store) => {
      const environment = environmentOf(store);
      const grants = access.stores.find((each) => each.store === store.name)?.grants ?? [];
      const figures = retention.find((each) => each.store === store.name);
      const controls =
        store.cloud === 'aws'
          ? judgeStore(AWS_COMPLIANCE, awsSubjectOf(store, context.resources, environment, grants, figures))
          : store.cloud === 'gcp'
            ? judgeStore(
                GCP_COMPLIANCE,
                gcpSubjectOf(store, context.resources, environment, grants, context.bootstrap?.resources),
              )
            : judgeStore(
                AZURE_COMPLIANCE,
                azureSubjectOf(store, context.resources, environment, figures, context.bootstrap?.resources),
              );
      return { store: store.name, cloud: store.cloud, environment, controls };
    });
    return { stores, summary: complianceSummary(stores) };
  },
);
export { complianceMarkdown } from './docs';
