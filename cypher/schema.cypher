// name: schema
// mode: script
// The graph's constraints and indexes. Every statement is idempotent (IF NOT EXISTS).
// `kg init` applies it; a load reads the schema and applies it only when a name is
// missing. Run it in Neo4j Browser as is (enable multi-statement query editor) or with
// `kg init`.
CREATE CONSTRAINT paper_key IF NOT EXISTS FOR (p:Paper) REQUIRE p.key IS UNIQUE;
CREATE CONSTRAINT author_key IF NOT EXISTS FOR (a:Author) REQUIRE a.key IS UNIQUE;
CREATE CONSTRAINT category_code IF NOT EXISTS FOR (c:Category) REQUIRE c.code IS UNIQUE;
CREATE CONSTRAINT snapshot_key IF NOT EXISTS FOR (s:Snapshot) REQUIRE s.key IS UNIQUE;
CREATE CONSTRAINT analytics_run_key IF NOT EXISTS FOR (r:AnalyticsRun) REQUIRE r.key IS UNIQUE;
CREATE INDEX paper_norm_title IF NOT EXISTS FOR (p:Paper) ON (p.norm_title);
CREATE INDEX paper_arxiv_id IF NOT EXISTS FOR (p:Paper) ON (p.arxiv_id);
CREATE INDEX paper_year IF NOT EXISTS FOR (p:Paper) ON (p.year);
CREATE INDEX paper_stub IF NOT EXISTS FOR (p:Paper) ON (p.stub);
CREATE INDEX paper_changed_at IF NOT EXISTS FOR (p:Paper) ON (p.changed_at);
CREATE INDEX also_titled_norm_title IF NOT EXISTS FOR ()-[v:ALSO_TITLED]-() ON (v.norm_title);
CREATE INDEX author_name IF NOT EXISTS FOR (a:Author) ON (a.name);
CREATE FULLTEXT INDEX paper_title_fulltext IF NOT EXISTS FOR (p:Paper) ON EACH [p.title];
CREATE CONSTRAINT title_lock_stripe IF NOT EXISTS FOR (l:TitleLock) REQUIRE l.stripe IS UNIQUE;
CREATE CONSTRAINT keep_apart_key IF NOT EXISTS FOR (k:KeepApart) REQUIRE k.key IS UNIQUE;
CREATE CONSTRAINT listed_apart_key IF NOT EXISTS FOR (l:ListedApart) REQUIRE l.key IS UNIQUE;
CREATE CONSTRAINT folded_key IF NOT EXISTS FOR (f:Folded) REQUIRE f.key IS UNIQUE;
CREATE INDEX listed_apart_norm_title IF NOT EXISTS FOR (l:ListedApart) ON (l.norm_title);
CREATE CONSTRAINT paper_id_key IF NOT EXISTS FOR (i:PaperId) REQUIRE i.key IS UNIQUE;
CREATE CONSTRAINT author_id_key IF NOT EXISTS FOR (i:AuthorId) REQUIRE i.key IS UNIQUE;
