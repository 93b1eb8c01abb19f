// name: kept_apart_all
// mode: read
// Every keep-apart record users made with kg unmerge, newest first.
MATCH (k:KeepApart)
RETURN k.split_from AS split_from, k.keys AS keys, k.norm_titles AS norm_titles, k.recorded_at AS recorded_at
ORDER BY k.recorded_at DESC, k.key
