// name: keep_apart
// mode: write
// Record splits read from a file (`kg load --keep-apart FILE`: the list that
// `kg merges --kept-apart --json` prints), so that the identity rule merges nothing into
// or out of these keys on this load and every later one, as after `kg unmerge`. A split
// already recorded is left as it is; a new one is dated now.
// param splits: list[map]  one map per split: key (kg.load.merges.kept_apart_key), split_from, keys (sorted), norm_titles (sorted)
UNWIND $splits AS split
MERGE (k:KeepApart {key: split.key})
ON CREATE SET k.split_from = split.split_from, k.keys = split.keys,
              k.norm_titles = split.norm_titles,
              k.recorded_at = datetime()
RETURN count(k) AS recorded
