// name: alias_holders
// mode: read
// The paper that now holds each title key merged away before: for a key with no paper of
// its own, the paper with the same normalised title (the one it holds, or one of its
// ALSO_TITLED titles) whose aliases name the key. The loader asks inside the batch's
// transaction, holding the titles' lock stripes, and writes the references straight to
// that paper, which gives the graph a merge would give.
// param refs: list[map]  one map per title key: key, norm_title
UNWIND $refs AS ref
OPTIONAL MATCH (own:Paper {key: ref.key})
WITH ref, own WHERE own IS NULL
CALL (ref) {
  MATCH (p:Paper {norm_title: ref.norm_title})
  RETURN p
  UNION
  MATCH (p:Paper)-[v:ALSO_TITLED]->(p) WHERE v.norm_title = ref.norm_title
  RETURN p
}
WITH ref, p WHERE ref.key IN p.aliases
RETURN ref.key AS key, p.key AS holder
