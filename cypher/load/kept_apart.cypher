// name: kept_apart
// mode: read
// The keys users split from a wrong merge (kg unmerge) among papers with these normalised
// titles: the identity rule (kg.loaders.identity.title_merges) merges nothing into or out of them.
// param norm_titles: list[str]  normalised titles (kg.loaders.identity.normalize_title)
MATCH (k:KeepApart)
WHERE any(norm IN k.norm_titles WHERE norm IN $norm_titles)
UNWIND k.keys AS key
RETURN DISTINCT key
ORDER BY key
