// name: similar_keys
// mode: read
// The key of every paper, read just before a similarity run writes: a paper of the run's
// projection that a merge removed since is left out of the lists it writes. (Writes name
// papers by key, not element id: an element id is only guaranteed within one transaction.)
MATCH (p:Paper)
RETURN p.key AS key
