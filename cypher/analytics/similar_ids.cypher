// name: similar_ids
// mode: read
// The element id of every paper, so that a similarity run writes its relationships by
// id seeks instead of key index lookups (about 860,000 on cit-HepTh).
MATCH (p:Paper)
RETURN p.key AS key, elementId(p) AS id
