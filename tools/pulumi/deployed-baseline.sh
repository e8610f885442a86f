#!/usr/bin/env bash
# The deployed baseline of a stack: the render its last successful deploy kept, with the commit it deployed,
# as the artifact deployed-<project>-<stack> of deploy.yml ("Keep the deployed render"; docs/deploy.md,
# "What is deployed"). Pull requests plan against it, and every deploy re-plans against it before `pulumi up`.
#
#   deployed-baseline.sh <project> <stack> <dir>
#
# Writes <dir>/<project>/<stack>.json (the render) and <dir>/<project>/<stack>.commit. Exits 0 with nothing
# written when the stack was never deployed (a new stack: planned as one), and 1 when the baseline cannot be
# read (GitHub not answering, or the artifact expired): what is deployed is then unknown, so nothing is planned
# as if it were known. Needs GH_TOKEN with `actions: read`, GITHUB_REPOSITORY, and `gh` and `jq` on PATH (both
# are on GitHub's runners).
set -euo pipefail
if [ "$#" -ne 3 ]; then
  echo "usage: deployed-baseline.sh <project> <stack> <dir>" >&2
  exit 2
fi
project=$1
stack=$2
dir=$3
name="deployed-${project}-${stack}"
# Newest first (GitHub REST "List artifacts for a repository", filtered by name:
# https://docs.github.com/en/rest/actions/artifacts#list-artifacts-for-a-repository).
if ! listing=$(gh api "repos/${GITHUB_REPOSITORY}/actions/artifacts?name=${name}&per_page=1"); then
  echo "::error title=Deployed baseline unknown::could not list the artifact ${name} of ${GITHUB_REPOSITORY}: what ${project}/${stack} runs in the cloud is unknown, so it is not planned against a guess."
  exit 1
fi
total=$(jq -r '.total_count // 0' <<<"$listing")
if [ "$total" = 0 ]; then
  echo "::notice title=Never deployed::${project}/${stack} has no deployed baseline (no successful deploy yet): planned as a new stack."
  exit 0
fi
run_id=$(jq -r '.artifacts[0] | select(.expired | not) | .workflow_run.id // empty' <<<"$listing")
if [ -z "$run_id" ]; then
  echo "::error title=Deployed baseline expired::the newest ${name} artifact has expired: deploy ${project} again (deploy.yml, run on demand with project=${project}) to record what is deployed."
  exit 1
fi
fetched=$(mktemp -d)
trap 'rm -rf "$fetched"' EXIT
gh run download "$run_id" --repo "$GITHUB_REPOSITORY" --name "$name" --dir "$fetched"
mkdir -p "$dir/$project"
cp "$fetched/render.json" "$dir/$project/$stack.json"
cp "$fetched/commit" "$dir/$project/$stack.commit"
echo "${project}/${stack}: deployed baseline of commit $(cat "$dir/$project/$stack.commit") (run ${run_id})"
