// name: lock_papers
// mode: write
// Take the write locks of the papers a batch's full records name, in key order, before the
// batch reads them: load_papers, load_authors and load_categories compare what a paper holds
// with what a record says before they write, and another loader must not change the paper
// between that reading and the writing. Setting a property to its own value takes the lock
// and changes nothing; the loader does not count it as a write. A paper not yet in the
// graph needs no lock here: MERGE on its unique key makes concurrent creators wait.
// param keys: list[str]  node keys, ascending
UNWIND $keys AS key
MATCH (p:Paper {key: key})
SET p.stub = p.stub
