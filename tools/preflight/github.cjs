/**
 * Whether the repository has the GitHub environment a deploy job names (its protection rules are what the
 * deploy role's trust relies on): GitHub REST "Get an environment", a read
 * (https://docs.github.com/en/rest/deployments/environments#get-an-environment).
 * @param {typeof fetch} fetchImpl
 * @param {{ repository?: string, environment: string, token?: string }} target
 * @returns {Promise<{ name: string, ok: boolean, detail: string }>}
 */
async function githubEnvironmentCheck(fetchImpl, { repository, environment, token }) {
  const name = `GitHub environment ${environment}`;
  if (!repository)
    return { name, ok: false, detail: 'GITHUB_REPOSITORY is not set (owner/name): not checked' };
  if (!token) return { name, ok: false, detail: 'GITHUB_TOKEN is not set: cannot read the environments' };
  const response = await fetchImpl(
    `https://api.github.com/repos/${repository}/environments/${encodeURIComponent(environment)}`,
    { method: 'GET', headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token}` } },
  );
  if (response.status === 404) {
    return {
      name,
      ok: false,
      detail: `${repository} has no environment ${environment}: create it (docs/deploy.md)`,
    };
  }
  if (!response.ok) return { name, ok: false, detail: `GitHub answered ${response.status}` };
  return { name, ok: true, detail: `${repository} has it` };
}

module.exports = { githubEnvironmentCheck };
