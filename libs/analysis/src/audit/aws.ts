import type { RenderedResource } from '@checkpoints/render';
import { stringInput } from '../access/model';

/** One CloudTrail data event: an object call on a bucket, read (GetObject) or write (PutObject, DeleteObject). */
export interface AwsDataEvent {
  /** `AWS::S3::Object` (general purpose bucket) or `AWS::S3Express::Object` (directory bucket). */
  resourceType: string;
  /** The object's ARN: the bucket's ARN, `/`, the key. */
  arn: string;
  readOnly: boolean;
}

interface FieldSelector {
  field: string;
  equals?: string[];
  notEquals?: string[];
  startsWiths?: string[];
  notStartsWiths?: string[];
  endsWiths?: string[];
  notEndsWiths?: string[];
}

/**
 * Whether a trail of the render records the event, and which: CloudTrail logs an event when any advanced event
 * selector matches it, and a selector matches when every one of its field selectors does; a field selector
 * matches when the field equals/starts with/ends with one of the listed values, and equals/starts with/ends
 * with none of the negated ones. A trail with `enableLogging: false` records nothing.
 * https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_AdvancedEventSelector.html,
 * https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_AdvancedFieldSelector.html,
 * https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_StartLogging.html.
 */
export function awsTrailsRecording(resources: readonly RenderedResource[], event: AwsDataEvent): string[] {
  return resources
    .filter((resource) => resource.type === 'aws:cloudtrail/trail:Trail')
    .filter((trail) => trail.inputs['enableLogging'] !== false)
    .filter((trail) =>
      selectorsOf(trail).some((selector) => selector.every((field) => matches(field, event))),
    )
    .map((trail) => stringInput(trail, 'name') ?? trail.name);
}

function selectorsOf(trail: RenderedResource): FieldSelector[][] {
  const selectors = trail.inputs['advancedEventSelectors'];
  if (!Array.isArray(selectors)) return [];
  return selectors.map((selector) => {
    const fields = (selector as { fieldSelectors?: unknown }).fieldSelectors;
    return Array.isArray(fields) ? (fields as FieldSelector[]) : [];
  });
}

function valueOf(field: string, event: AwsDataEvent): string | undefined {
  if (field === 'eventCategory') return 'Data';
  if (field === 'resources.type') return event.resourceType;
  if (field === 'resources.ARN') return event.arn;
  if (field === 'readOnly') return String(event.readOnly);
  return undefined;
}

function matches(selector: FieldSelector, event: AwsDataEvent): boolean {
  const value = valueOf(selector.field, event);
  // A field the model does not know (eventName, eventSource...) could exclude the event: not counted as recorded.
  if (value === undefined) return false;
  const any = (list: string[] | undefined, test: (entry: string) => boolean) => (list ?? []).some(test);
  const positive = [
    [selector.equals, (entry: string) => value === entry],
    [selector.startsWiths, (entry: string) => value.startsWith(entry)],
    [selector.endsWiths, (entry: string) => value.endsWith(entry)],
  ] as const;
  const stated = positive.filter(([list]) => list !== undefined);
  if (stated.length > 0 && !stated.some(([list, test]) => any(list, test))) return false;
  if (any(selector.notEquals, (entry) => value === entry)) return false;
  if (any(selector.notStartsWiths, (entry) => value.startsWith(entry))) return false;
  return !any(selector.notEndsWiths, (entry) => value.endsWith(entry));
}
