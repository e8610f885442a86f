import { awsTrailsRecording } from '@checkpoints/analysis';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { stackRule } from '../define';
import { awsStoresOf } from './support';

const STACK_AUDIT = COMPONENT_TYPES.awsStackAudit;
const REPLICA = COMPONENT_TYPES.awsStoreReplica;

/**
 * Every store whose spec says it is audited (`audit`, on by default in prod and for confidential and
 * restricted data) has the reads and the writes of its objects recorded by a trail of the render, judged by
 * CloudTrail's selector semantics (libs/analysis `awsTrailsRecording`), unless the stack declares an
 * organization trail, which the render cannot inspect.
 */
export const awsS3DataEventsAudited = stackRule({
  name: 'aws-s3-data-events-audited',
  description:
    "Every audited store has the reads and writes of its objects and of its replica's objects (S3 and S3 Express One Zone data events) recorded by a logging CloudTrail trail, or the stack names an organization trail",
  source:
    'CIS AWS Foundations Benchmark v3.0.0 3.8 and 3.9 (S3 object-level read and write events recorded in CloudTrail)',
  validate: (args, report, evaluation) => {
    const { resources } = evaluation();
    const declared = resources.some(
      (r) => r.type === STACK_AUDIT && typeof r.inputs['organizationTrail'] === 'string',
    );
    if (declared) return;
    // The trails, found once: every store's events are judged against the same ones.
    const trails = resources.filter((r) => r.type === 'aws:cloudtrail/trail:Trail');
    for (const { store, component, directory, bucketArn } of awsStoresOf(evaluation())) {
      if (component.inputs['audit'] !== true) continue;
      // The replica holds the same checkpoints, so its reads and writes are recorded too.
      const replica = store.resources.find((resource) => resource.type === REPLICA);
      const replicaBucket = store.resources.find(
        (resource) => resource.parent === replica?.urn && resource.type === 'aws:s3/bucket:Bucket',
      );
      const replicaName = replicaBucket?.inputs['bucket'];
      const buckets = [
        { what: 'its objects', arn: bucketArn },
        ...(typeof replicaName === 'string'
          ? [{ what: "its replica's objects", arn: `arn:aws:s3:::${replicaName}` }]
          : []),
      ];
      for (const { what, arn } of buckets) {
        const event = (readOnly: boolean) => ({
          resourceType: directory ? 'AWS::S3Express::Object' : 'AWS::S3::Object',
          arn: `${arn}/any/checkpoint.pt`,
          readOnly,
        });
        const missing = [
          ...(awsTrailsRecording(trails, event(true)).length === 0 ? ['reads'] : []),
          ...(awsTrailsRecording(trails, event(false)).length === 0 ? ['writes'] : []),
        ];
        if (missing.length > 0) {
          report(
            `store ${store.name}: no logging trail records the ${missing.join(' and ')} of ${what} (${arn}); expected an advanced event selector with eventCategory Data, resources.type ${event(true).resourceType} and resources.ARN StartsWith ${arn}/, or checkpoints:organizationTrail`,
            component.urn,
          );
        }
      }
    }
  },
});
