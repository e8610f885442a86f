#!/usr/bin/env bash
# Prod is a promotion: it deploys the last commit that deployed <project> to dev successfully (the commit
# its dev deployed baseline names; deployed-baseline.sh), never a commit dev has not run. Checks that commit
# out in the current repository (a full clone) and sets the step output `commit`.
#
#   promote.sh <project> <dir>
#
# Exits 1 when dev was never deployed, or its baseline cannot be read: there is nothing proven to promote.
set -euo pipefail
if [ "$#" -ne 2 ]; then
  echo "usage: promote.sh <project> <dir>" >&2
  exit 2
fi
project=$1
dir=$2
"$(dirname "${BASH_SOURCE[0]}")/deployed-baseline.sh" "$project" dev "$dir"
if [ ! -f "$dir/$project/dev.commit" ]; then
  echo "::error title=Nothing to promote::${project} has never deployed to dev successfully: prod deploys only a commit dev has run (deploy it to dev first)."
  exit 1
fi
commit=$(cat "$dir/$project/dev.commit")
if [ "$commit" != "${GITHUB_SHA:-}" ]; then
  echo "::notice title=Promoting an earlier commit::${project}: dev last deployed ${commit}, not this run's ${GITHUB_SHA:-}; prod promotes ${commit} (a prod-only change reaches prod with a run that deploys dev too: run deploy.yml on demand with project=${project})."
fi
git checkout --quiet --detach "$commit"
echo "commit=${commit}" >> "${GITHUB_OUTPUT:-/dev/null}"
echo "${project}: promoting ${commit} to prod"
