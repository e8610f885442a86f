/**
 * What every store exports, the same shape on every cloud. Generic in the value
 * type so this lib stays free of the Pulumi SDK; stacks use `StoreOutputs<pulumi.Output<string>>`.
 */
export interface StoreOutputs<Value = string> {
  /** s3://bucket/ | gs://bucket/ | abfss://filesystem@account.dfs.core.windows.net/ */
  uri: Value;
  /** Region or location of the store. */
  location: Value;
  /** Role ARN | service-account email | managed identity client ID that may write. */
  writerIdentity: Value;
  /** Same, for the read-only identity. */
  readerIdentity: Value;
  /** Environment variables a training job needs, as is (CHECKPOINT_URI first). No credentials. */
  env: Record<string, Value>;
}
