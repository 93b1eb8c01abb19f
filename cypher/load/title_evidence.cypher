// name: title_evidence
// mode: read
// What speaks against merges under these normalised titles, in one read per reconcile round:
// the keys map pages list as separate papers (kind 'listed': a page's references, and its
// own paper; one node per title and set of keys, whichever pages listed it), which the
// identity rule (kg.loaders.identity.title_places) keeps apart two by two, and the keys users
// split from a wrong merge (kind 'kept': kg unmerge, kg load --keep-apart), which it merges
// with nothing.
// param norm_titles: list[str]  normalised titles (kg.loaders.identity.normalize_title)
UNWIND $norm_titles AS norm_title
MATCH (l:ListedApart {norm_title: norm_title})
RETURN 'listed' AS kind, norm_title, l.keys AS keys
UNION ALL
MATCH (k:KeepApart)
WHERE any(norm IN k.norm_titles WHERE norm IN $norm_titles)
RETURN 'kept' AS kind, null AS norm_title, k.keys AS keys
