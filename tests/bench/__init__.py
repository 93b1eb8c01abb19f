"""Benchmarks: a synthetic citation-graph generator, a naive loader, and the ingest benchmark."""
