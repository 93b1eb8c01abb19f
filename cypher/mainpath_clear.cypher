// name: mainpath_clear
// mode: auto
// Remove the main path flags (main_path, key_route) from every Paper and the spc weight
// from every CITES relationship, in batches, before a new run writes its own. Uses
// CALL { } IN TRANSACTIONS: it runs as an auto-commit transaction (:auto in Browser).
// param batch_size: int = 10000  papers or citations per transaction
CALL () {
  MATCH (p:Paper) WHERE p.main_path IS NOT NULL OR p.key_route IS NOT NULL
  RETURN p AS item
  UNION ALL
  MATCH ()-[c:CITES]->() WHERE c.spc IS NOT NULL
  RETURN c AS item
}
CALL (item) {
  REMOVE item.main_path, item.key_route, item.spc
} IN TRANSACTIONS OF $batch_size ROWS
RETURN count(item) AS cleared
