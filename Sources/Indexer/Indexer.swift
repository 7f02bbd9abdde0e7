// Indexer
