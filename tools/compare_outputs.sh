#!/bin/bash
# compare_outputs.sh BASE_K2S NEW_K2S MODULE_DIR: translates every MODULE_DIR/*.spv with
# both k2s binaries for vulkan1.1, 1.2, 1.3 and 1.3 with native float atomics, and
# prints each translation whose exit status, messages or output differ; the last line
# counts them (exit 1 if any). The proof of a refactoring meant to be byte-identical:
# build MODULE_DIR with tools/corpus_modules.py, BASE_K2S from the branch point.
set -u
base=$1 new=$2 dir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 differ=0
for f in "$dir"/*.spv; do
  for env in "vulkan1.1" "vulkan1.2" "vulkan1.3" "vulkan1.3 --float-atomics=add,min-max"; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # env holds options
    "$base" --target-env $env "$f" -o "$tmp/a.spv" >"$tmp/a.err" 2>&1; ra=$?
    # shellcheck disable=SC2086
    "$new" --target-env $env "$f" -o "$tmp/b.spv" >"$tmp/b.err" 2>&1; rb=$?
    if [ $ra != $rb ] || ! cmp -s "$tmp/a.err" "$tmp/b.err" ||
      { [ $ra = 0 ] && ! cmp -s "$tmp/a.spv" "$tmp/b.spv"; }; then
      echo "differs: $f --target-env $env (exit $ra vs $rb)"
      differ=$((differ + 1))
    fi
    rm -f "$tmp/a.spv" "$tmp/b.spv"
  done
done
echo "$n translations, $differ differ"
[ $differ = 0 ]
