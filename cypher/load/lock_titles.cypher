// name: lock_titles
// mode: write
// Take the write locks of lock stripes (kg.loaders.identity.title_lock_stripe of a normalised title)
// for the rest of the transaction, creating a stripe's node the first time. The loader
// takes them, in ascending order, before writing papers known only by title and before
// merging papers, so that writers and reconcilers of one title run one after another.
// Setting and removing a property takes the lock and leaves nothing behind.
// param stripes: list[int]  the stripes to lock, ascending
UNWIND $stripes AS stripe
MERGE (l:TitleLock {stripe: stripe})
SET l.held = true
REMOVE l.held
