#!/usr/bin/env bash
# A stack deploy stops when the applied bootstrap is older than the bootstrap code of the commit being
# deployed: the stacks were rendered against grants and identities the clouds do not have yet.
# APPLIED is the commit the bootstrap was last applied from (the repository variable
# BOOTSTRAP_APPLIED_COMMIT, set by whoever runs `nx run bootstrap:up`; docs/bootstrap.md). Run in a full
# clone (fetch-depth: 0), at the commit being deployed.
set -euo pipefail
# What the bootstrap is made of: its project, the root Pulumi.yaml and the libs it is built from.
needed=$(git log -1 --format=%H -- bootstrap Pulumi.yaml libs/naming libs/tagging libs/config libs/render)
if [ -z "${APPLIED:-}" ]; then
  echo "::error title=Bootstrap applied: unknown::the repository variable BOOTSTRAP_APPLIED_COMMIT is not set: set it to the commit you applied the bootstrap from (docs/bootstrap.md); without it no stack deploys."
  exit 1
fi
if ! git cat-file -e "${APPLIED}^{commit}" 2>/dev/null; then
  echo "::error title=Bootstrap applied: unknown commit::BOOTSTRAP_APPLIED_COMMIT=${APPLIED} is no commit of this repository."
  exit 1
fi
if ! git merge-base --is-ancestor "$needed" "$APPLIED"; then
  echo "::error title=Bootstrap older than the stacks::the bootstrap was applied from ${APPLIED}, before ${needed} changed it: apply the bootstrap first ('npx nx run bootstrap:up --stack=ci', docs/bootstrap.md), then set BOOTSTRAP_APPLIED_COMMIT and re-run this deploy."
  exit 1
fi
echo "bootstrap applied from ${APPLIED}, which includes ${needed}"
