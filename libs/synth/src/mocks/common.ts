import { createHash } from 'node:crypto';
import type { MockCallArgs, MockResourceArgs } from '@pulumi/pulumi/runtime/mocks';

/** Deterministic stand-in for a provider-computed value: the same inputs always render the same output. */
export function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** A GUID derived from the parts, in the 8-4-4-4-12 form Azure and AWS KMS use. */
export function guid(...parts: string[]): string {
  const hex = digest(...parts);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface MockState {
  id: string;
  state: Record<string, unknown>;
}

/** Computes the state a provider would return for a resource type; `undefined` falls back to the inputs. */
export type ResourceMock = (args: MockResourceArgs) => MockState | undefined;
export type CallMock = (args: MockCallArgs) => Record<string, unknown> | undefined;

export interface CloudMocks {
  resources: Record<string, ResourceMock>;
  calls: Record<string, CallMock>;
}

export function str(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.length > 0 ? value : fallback;
}
