#!/usr/bin/env bash
# `make check-figures`: the figures in docs/performance.md and docs/reliability.md came from `make bench` and
# `make stress` runs of the current code. Each file records its run's commit in a marker line
#   docs/performance.md: <!-- figures: bench <40-hex commit> clean -->
#   docs/reliability.md: <!-- figures: stress <40-hex commit> clean -->
# (copied from bench-out/results.json / stress-out/results.json, which record the commit and whether the tree
# was dirty). Fails, naming the files, when a file the run measured changed since that commit: the paths
# scripts/engramtest/version.py lists for the suite (Sources/, Package.swift, the test worlds' package, the corpus
# script and the suite's own folder), Markdown excepted. Commits that touch only other files (READMEs, tests, docs) keep the figures valid.
# Also fails when a marker is missing, names a commit this clone lacks, or a run was made on a dirty tree.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0

for suite in bench stress; do
  case "$suite" in bench) doc=docs/performance.md ;; stress) doc=docs/reliability.md ;; esac
  line=$(grep -E "^<!-- figures: $suite [0-9a-f]{40} (clean|dirty) -->$" "$doc" 2>/dev/null || true)
  if [ -z "$line" ]; then
    echo "check-figures: $doc has no '<!-- figures: $suite <commit> clean -->' line: which run are its $suite figures from?" >&2
    status=1; continue
  fi
  commit=$(awk '{print $4}' <<<"$line"); tree=$(awk '{print $5}' <<<"$line")
  if [ "$tree" != clean ]; then
    echo "check-figures: the $suite figures come from a run on a dirty tree at ${commit:0:10}; run make $suite on committed code" >&2
    status=1; continue
  fi
  if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "check-figures: the $suite figures name commit ${commit:0:10}, which this clone does not have (a shallow clone? git fetch --unshallow)" >&2
    status=1; continue
  fi
  mapfile -t paths < <(PYTHONPATH=scripts /usr/bin/python3 -m engramtest.version --paths "$suite")
  [ ${#paths[@]} -gt 0 ] || { echo "check-figures: engramtest.version gave no measured paths for $suite" >&2; status=1; continue; }
  # Against the working tree (uncommitted edits count); Markdown (the suites' READMEs) is not measured code.
  changed=$(git diff --name-only "$commit" -- "${paths[@]}" ':(exclude)*.md')
  if [ -n "$changed" ]; then
    n=$(wc -l <<<"$changed")
    echo "check-figures: $doc's $suite figures are from ${commit:0:10}; $n measured file(s) changed since:" >&2
    sed 's/^/    /' <<<"$changed" | head -20 >&2
    echo "  run 'make $suite' on the current code and copy its figures and its marker line into $doc" >&2
    status=1
  else
    echo "check-figures: $suite figures are from ${commit:0:10}; no measured file changed since"
  fi
done
exit $status
