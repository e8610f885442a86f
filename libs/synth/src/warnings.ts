/**
 * The warnings a program logs with `pulumi.log.warn` while it renders. With mocks there is no engine to
 * send a log to, and the SDK then writes the message to `console.warn` with its own prefix
 * (`@pulumi/pulumi` log/index.js `warn`: `console.warn(\`warning: [runtime] ${msg}\`)` when `getEngine()` is
 * undefined, which it is under `setMockOptions` with no engine address): the render records those lines, so a
 * warning reaches the JSON, the report and the pull request instead of scrolling past in nx's output.
 */

/** One warning as the render records it: a stable code, the program's message and where it is explained. */
export interface RenderWarning {
  code: string;
  message: string;
  /** The docs section that explains the warning and what to do (a path in this repository, with its anchor). */
  docs: string;
}

const SDK_PREFIX = 'warning: [runtime] ';

/** What each kind of warning the programs emit is called, and where docs/warnings.md explains it. */
const KINDS: { code: string; matches: RegExp }[] = [
  // libs/translate gcsRetentionWarnings: an object removed before its class's minimum storage duration.
  { code: 'early-deletion-billing', matches: /minimum storage duration/ },
  // The SDK's own, for a stack output whose value is undefined (runtime/stack.js): the output is dropped.
  { code: 'undefined-stack-output', matches: /will not show as a stack output/ },
  // libs/config aws/gcp/azureQuotaWarnings: a stack that alone needs more than a cloud's default quota.
  { code: 'default-quota', matches: /default quota/ },
];

/** The code of a warning message; one no kind claims is `unclassified`, never dropped. */
export function warningOf(message: string): RenderWarning {
  const code = KINDS.find((kind) => kind.matches.test(message))?.code ?? 'unclassified';
  return { code, message, docs: `docs/warnings.md#${code}` };
}

/**
 * Runs `callback` with the SDK's warnings recorded; every `console.warn` still goes through as it was (what
 * reads the process's warnings, a test's spy or a terminal, sees them as before).
 */
export async function recordingWarnings<T>(
  callback: () => Promise<T>,
): Promise<{ result: T; warnings: RenderWarning[] }> {
  const warnings: RenderWarning[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const [first] = args;
    if (args.length === 1 && typeof first === 'string' && first.startsWith(SDK_PREFIX)) {
      warnings.push(warningOf(first.slice(SDK_PREFIX.length)));
    }
    warn(...args);
  };
  try {
    return { result: await callback(), warnings };
  } finally {
    console.warn = warn;
  }
}
