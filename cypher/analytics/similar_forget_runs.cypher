// name: similar_forget_runs
// mode: write
// Remove the records of the similarity runs, so that while a new run replaces the stored
// lists every question computes live.
// param keys: list[str]  the run keys, co_cited and coupled
MATCH (r:AnalyticsRun)
WHERE r.key IN $keys
DELETE r
