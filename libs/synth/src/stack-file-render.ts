import { render } from './render';
import type { Snapshot } from './snapshot';
import { readProject, readStackConfig, stackConfigFile } from './stack-files';

/** Renders a program with a stack's own config file (e.g. the shipped Pulumi.prod.yaml), as synth does. */
export function renderStackFile(
  projectDir: string,
  stack: string,
  program: () => unknown,
): Promise<Snapshot> {
  const project = readProject(projectDir);
  const { config, secretKeys } = readStackConfig(stackConfigFile(project, stack), project);
  return render(program, { project: project.name, stack, config, secretKeys });
}
