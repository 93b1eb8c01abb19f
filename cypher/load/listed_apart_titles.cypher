// name: listed_apart_titles
// mode: read
// The keys map pages list as separate papers under these normalised titles (a page's
// references, and its own paper; one node per title and set of keys, whichever pages
// listed it): the identity rule (kg.loaders.identity.title_places) keeps any two of them
// apart.
// param norm_titles: list[str]  normalised titles (kg.loaders.identity.normalize_title)
UNWIND $norm_titles AS norm_title
MATCH (l:ListedApart {norm_title: norm_title})
RETURN norm_title, l.keys AS keys
ORDER BY norm_title, l.key
