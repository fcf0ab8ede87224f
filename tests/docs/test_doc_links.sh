#!/usr/bin/env bash
# Every link in the project's Markdown (README.md, docs/) leads somewhere:
# a file or folder that exists, and a heading that exists for a "#anchor"
# (GitHub's heading ids). Every repository path the docs name in code
# spans (`render/src/...`, `scripts/grade.sh`) exists too, and so does every
# doc a source comment cites (docs/NAME.md). Links to the web are not
# followed. Usage: test_doc_links.sh [--docs-only] [ROOT] (default: this
# repository); --docs-only checks the Markdown alone, not source comments
# (tests/student/test_handout_contents.sh checks a handout's docs so).
set -uo pipefail
docs_only=0
if [ "${1:-}" = --docs-only ]; then
  docs_only=1
  shift
fi
root=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
# The test helpers are this script's own, whatever tree it checks.
# shellcheck source=tests/grade/testing.sh
source "$(dirname "$0")/../grade/testing.sh"
cd "$root" || exit 1

# anchors FILE: the ids of FILE's headings, one a line, as GitHub makes
# them: lower case, punctuation dropped (not - or _), spaces to hyphens.
anchors() {
  awk '/^```/ { code = !code; next } !code && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
    tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}

docs=(README.md docs/*.md docs/*/*.md)
# Links: [text](target), the target neither a URL nor an e-mail address.
for doc in "${docs[@]}"; do
  dir=$(dirname "$doc")
  while IFS= read -r target; do
    [[ $target =~ ^(https?|mailto): ]] && continue
    path=${target%%#*} anchor=""
    [[ $target == *"#"* ]] && anchor=${target#*#}
    if [ -n "$path" ]; then
      file=$dir/$path
      if [ ! -e "$file" ]; then
        fail "$doc links to $target: no such file"
        continue
      fi
    else
      file=$doc
    fi
    if [ -n "$anchor" ] && [[ $file == *.md ]]; then
      if anchors "$file" | grep -qxF -- "$anchor"; then pass; else fail "$doc links to $target: no such heading"; fi
    else
      pass
    fi
  done < <(grep -oE '\]\([^) ]+\)' "$doc" | sed -E 's/^\]\(//; s/\)$//')
done

# Paths in code spans that name a file of this repository: a top-level
# folder of the suite, then more path.
top='(common|saxpy|scan|render|scenes|judge|scripts|tests|docs|cmake)'
for doc in "${docs[@]}"; do
  while IFS= read -r path; do
    # Globs and placeholders (an upper-case word: MODE, NAME) are not files.
    [[ $path =~ (\*|<|>|\.\.\.|(^|/)[A-Z_]+(/|\.|$)|_[A-Z]+(/|\.|$)) ]] && continue
    if [ -e "$path" ]; then pass; else fail "$doc names \`$path\`: no such file or folder"; fi
  done < <(grep -oE "\`$top/[A-Za-z0-9_./-]+\`" "$doc" | tr -d '`' | sed -E 's/[.,:;]+$//' | sort -u)
done

# Docs cited by source comments.
[ "$docs_only" = 0 ] || {
  finish
  exit
}
while IFS= read -r cited; do
  if [ -e "$cited" ]; then pass; else fail "a source comment cites $cited: no such file"; fi
done < <(grep -rhoE --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' --include='*.sh' \
  --include='CMakeLists.txt' --include='*.cmake' 'docs/([a-z_]+/)?[a-z_0-9]+\.md' common saxpy scan render scenes judge scripts tests cmake CMakeLists.txt |
  sort -u)

finish
