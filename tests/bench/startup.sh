#!/usr/bin/env bash
# CPU seconds (user + system) of `kg --version`, 10 runs of each tree given (default: this
# one). Compare with an older kg: git worktree add /tmp/old-kg 474ebdd, then
#   bash tests/bench/startup.sh /tmp/old-kg "$PWD"
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
python=$repo/.venv/bin/python
cd /tmp  # so that the working directory does not come first on sys.path
for tree in "${@:-$repo}"; do
  for _ in $(seq 10); do
    PYTHONPATH=$tree /usr/bin/time -f "%U %S" "$python" -c \
      "from kg.cli import main; main(['--version'])" 2>&1 >/dev/null | tail -1
  done | awk '{print $1 + $2}' | sort -n |
    awk -v t="$tree" '{a[NR] = $1} END {printf "%s: min %.2f median %.2f max %.2f s CPU\n", t, a[1], a[int((NR + 1) / 2)], a[NR]}'
done
