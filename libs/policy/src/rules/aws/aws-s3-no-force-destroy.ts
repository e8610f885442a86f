import { resourceRule } from '../define';
import { inputsOf, shown } from '../inputs';
import { ALL_BUCKETS } from './support';

export const awsS3NoForceDestroy = resourceRule({
  name: 'aws-s3-no-force-destroy',
  description:
    'No bucket sets forceDestroy: deleting a bucket never deletes the checkpoints (and their versions) in it',
  source:
    'Checkpoint security baseline (data never lost to a deploy); AWS Well-Architected Reliability Pillar REL09 (back up data); Pulumi AWS provider docs: aws.s3.Bucket forceDestroy',
  types: ALL_BUCKETS,
  validate: (_props, args, report) => {
    const forceDestroy = inputsOf(args)['forceDestroy'];
    if (forceDestroy !== undefined && forceDestroy !== false) {
      report(
        `forceDestroy is ${shown(forceDestroy)}; expected false or not set, so a non-empty bucket is never deleted`,
      );
    }
  },
});
