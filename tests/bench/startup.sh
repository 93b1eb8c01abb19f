# CPU seconds (user+sys) of `kg --version`, 10 runs each: kg 0.8.0 (474ebdd) and this tree
cd /tmp
for tree in /tmp/old-kg /work/main; do
  for i in $(seq 10); do
    PYTHONPATH=$tree /usr/bin/time -f "%U %S" /work/main/.venv/bin/python -c "from kg.cli import main; main(['--version'])" 2>&1 >/dev/null | tail -1
  done | awk '{print $1+$2}' | sort -n | awk -v t=$tree '{a[NR]=$1} END {printf "%s: min %.2f median %.2f max %.2f s CPU\n", t, a[1], a[int((NR+1)/2)], a[NR]}'
done
