/*
 * cxapian.h - Engram's plain C interface to Xapian.
 *
 * The shim is shaped like notmuch's lib/notmuch.h: opaque handles, every
 * fallible call returns a cx_status and can hand back a cx_error describing
 * what happened, and every handle has a *_destroy function.  No C++
 * exception ever leaves the shim: each entry point catches everything and
 * maps it to a status through one translator (error.cc).
 *
 * Strings cross the boundary as cx_bytes (pointer + length), never as
 * NUL-terminated strings, so text containing NUL bytes is passed intact.
 * A cx_bytes whose data is NULL means "absent"; an empty but present
 * string has a non-NULL data pointer and length 0.
 *
 * Ownership: pointers returned inside a handle (cx_bytes in cx_hit, strings
 * of a cx_strings) are owned by that handle and stay valid until it is
 * destroyed.  Handles returned through out-parameters are owned by the
 * caller, who must release them with the matching *_destroy function.
 *
 * Threads: a handle must not be used by two threads at once.
 */
#ifndef CXAPIAN_H
#define CXAPIAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
/* Every entry point is noexcept: an exception that escaped would terminate, never unwind into the caller. */
#define CX_NOEXCEPT noexcept
#else
#define CX_NOEXCEPT
#endif

/* ---------------------------------------------------------------- status */

/** The outcome of a shim call; one value per Xapian error family. */
typedef enum cx_status {
    /** The call succeeded. */
    CX_STATUS_SUCCESS = 0,
    /** Another writer holds the database lock (Xapian::DatabaseLockError). */
    CX_STATUS_DATABASE_LOCKED,
    /** No database exists at the path (Xapian::DatabaseNotFoundError). */
    CX_STATUS_DATABASE_NOT_FOUND,
    /** A document asked for does not exist (Xapian::DocNotFoundError). */
    CX_STATUS_DOCUMENT_NOT_FOUND,
    /** The query could not be parsed (Xapian::QueryParserError). */
    CX_STATUS_QUERY_PARSER_ERROR,
    /** The revision being read was discarded; reopen and retry (Xapian::DatabaseModifiedError). */
    CX_STATUS_DATABASE_MODIFIED,
    /** The database files are damaged (Xapian::DatabaseCorruptError). */
    CX_STATUS_DATABASE_CORRUPT,
    /** The database format is not supported by this Xapian (Xapian::DatabaseVersionError). */
    CX_STATUS_DATABASE_VERSION,
    /** Any other database or I/O failure (Xapian::DatabaseError and subclasses). */
    CX_STATUS_DATABASE_ERROR,
    /** A caller-supplied argument was invalid (Xapian::InvalidArgumentError, bad shim arguments). */
    CX_STATUS_INVALID_ARGUMENT,
    /** The operation is not allowed in this state (Xapian::InvalidOperationError). */
    CX_STATUS_INVALID_OPERATION,
    /** Memory ran out (std::bad_alloc). */
    CX_STATUS_OUT_OF_MEMORY,
    /** Any other Xapian::Error. */
    CX_STATUS_XAPIAN_EXCEPTION,
    /** A non-Xapian C++ exception. */
    CX_STATUS_UNKNOWN_EXCEPTION
} cx_status;

/** Returns a short constant English description of a status. */
const char *cx_status_to_string(cx_status status);

/* ----------------------------------------------------------------- error */

/** Details of a failed call: its status, the exception type and message. */
typedef struct cx_error cx_error;

/** Returns the status the error was mapped to. */
cx_status cx_error_status(const cx_error *error) CX_NOEXCEPT;

/** Returns the exception's type name, e.g. "DatabaseLockError" (owned by the error). */
const char *cx_error_type(const cx_error *error);

/** Returns the exception's message (owned by the error). */
const char *cx_error_message(const cx_error *error);

/** Releases an error; NULL is allowed. */
void cx_error_destroy(cx_error *error) CX_NOEXCEPT;

/* ----------------------------------------------------------------- bytes */

/** A borrowed byte string; data == NULL means absent. */
typedef struct cx_bytes {
    const char *data;
    size_t length;
} cx_bytes;

/** A list of byte strings owned by the list. */
typedef struct cx_strings cx_strings;

/** Returns how many strings the list holds. */
size_t cx_strings_count(const cx_strings *strings) CX_NOEXCEPT;

/** Returns string number index (borrowed; valid until the list is destroyed). */
cx_bytes cx_strings_get(const cx_strings *strings, size_t index) CX_NOEXCEPT;

/** Releases a list; NULL is allowed. */
void cx_strings_destroy(cx_strings *strings) CX_NOEXCEPT;

/* -------------------------------------------------------------- document */

/** Unix time (seconds) stored as the expiry of documents that never expire (9999-12-31T23:59:59Z). */
#define CX_EXPIRY_NEVER 253402300799.0

/** Metadata key under which the last applied outbox sequence number is stored. */
#define CX_LAST_SEQ_KEY "engram.last_seq"

/** Metadata key holding when (Unix time) the first deletion not yet compacted away was committed; absent when none. */
#define CX_COMPACT_DUE_KEY "engram.compact_due"

/**
 * Everything the shim needs to index one item.
 *
 * kind and id are required and form the identity (unique term
 * "Q<kind>:<id>").  title and body are indexed as free text (title also
 * under the "S" prefix); type, tags, context and curriculum become boolean
 * filter terms.  data is stored verbatim as the Xapian document data: the
 * shim takes search snippets from the text that follows the first blank
 * line ("\n\n") of data, so the caller puts the body there.
 */
typedef struct cx_document_fields {
    cx_bytes kind;
    cx_bytes id;
    cx_bytes title;
    cx_bytes body;
    cx_bytes type;
    cx_bytes context;
    cx_bytes curriculum;
    const cx_bytes *tags;
    size_t tag_count;
    /** Creation time, Unix seconds. */
    double created;
    /** Creation day as "YYYYMMDD" in the user's time zone (for created: ranges). */
    cx_bytes created_day;
    /** Expiry, Unix seconds; pass CX_EXPIRY_NEVER for items that never expire. */
    double expiry;
    cx_bytes data;
} cx_document_fields;

/* ---------------------------------------------------------------- writer */

/** The single writer of one index; holds the Xapian write lock while open. */
typedef struct cx_writer cx_writer;

/**
 * Opens the database at path (a glass directory or a stub file) for writing.
 *
 * Never waits for the lock: if another writer holds it, returns
 * CX_STATUS_DATABASE_LOCKED at once.  With create != 0 a missing
 * database directory is created.
 */
cx_status cx_writer_open(const char *path, int create, cx_writer **writer_out, cx_error **error_out) CX_NOEXCEPT;

/** Discards uncommitted changes, releases the lock and frees the writer; NULL is allowed. */
void cx_writer_destroy(cx_writer *writer) CX_NOEXCEPT;

/** Adds or replaces the document with the same kind and id, updating the spelling data. */
cx_status cx_writer_replace(cx_writer *writer, const cx_document_fields *fields, cx_error **error_out) CX_NOEXCEPT;

/**
 * Builds a new database at path (an empty or missing directory, not yet in use) from count documents.
 *
 * The documents are split by identity into threads shards indexed at the same time, then compacted
 * into path; the result is what cx_writer_replace for each document and cx_writer_commit(last_seq)
 * would have written (docids aside), in less time on several cores.  Repeats of one kind and id: the
 * last wins.  On failure the shards are removed and path is left for the caller to remove.
 */
cx_status cx_build_database(const char *path, const cx_document_fields *docs, size_t count, int64_t last_seq,
                            unsigned threads, cx_error **error_out) CX_NOEXCEPT;

/** Deletes one document and its spelling contribution; *deleted_out (optional) is 1 if it existed. */
cx_status cx_writer_delete(cx_writer *writer, cx_bytes kind, cx_bytes id, int *deleted_out, cx_error **error_out) CX_NOEXCEPT;

/** Deletes every document of a kind and their spelling contribution; *count_out (optional) gets how many. */
cx_status cx_writer_delete_kind(cx_writer *writer, cx_bytes kind, uint64_t *count_out, cx_error **error_out) CX_NOEXCEPT;

/** Deletes documents whose expiry is before now; *removed_out lists them as "kind:id". */
cx_status cx_writer_sweep_expired(cx_writer *writer, double now, cx_strings **removed_out, cx_error **error_out) CX_NOEXCEPT;

/** Makes all changes since the last commit durable together with last_seq under CX_LAST_SEQ_KEY. */
cx_status cx_writer_commit(cx_writer *writer, int64_t last_seq, cx_error **error_out) CX_NOEXCEPT;

/** Reads the last applied sequence number (0 if never set), including uncommitted changes. */
cx_status cx_writer_last_seq(cx_writer *writer, int64_t *seq_out, cx_error **error_out) CX_NOEXCEPT;

/**
 * Records, in the changes the next commit makes durable, that deleted documents' bytes are waiting in free blocks
 * (the time `now`, kept if one is already recorded), so whoever holds the writer next compacts even after a crash.
 */
cx_status cx_writer_mark_compact_due(cx_writer *writer, double now, cx_error **error_out) CX_NOEXCEPT;

/** *since_out gets the time recorded by cx_writer_mark_compact_due, or 0 when no compaction is due. */
cx_status cx_writer_compact_due(cx_writer *writer, double *since_out, cx_error **error_out) CX_NOEXCEPT;

/**
 * Copies the committed database at source into a new database at dest with Xapian's compaction (docids kept):
 * fresh tables without free blocks, so bytes of deleted documents are not carried over. dest's
 * CX_COMPACT_DUE_KEY is cleared. Hold source's writer meanwhile so no commit lands in between.
 */
cx_status cx_compact_database(const char *source, const char *dest, cx_error **error_out) CX_NOEXCEPT;

/** Counts documents of a kind (kind.data == NULL: all), including uncommitted changes. */
cx_status cx_writer_document_count(cx_writer *writer, cx_bytes kind, uint64_t *count_out, cx_error **error_out) CX_NOEXCEPT;

/* -------------------------------------------------------------- database */

/** A read-only view of an index at one revision. */
typedef struct cx_database cx_database;

/** Opens the database at path (a glass directory or a stub file) read-only. */
cx_status cx_database_open(const char *path, cx_database **database_out, cx_error **error_out) CX_NOEXCEPT;

/** Frees a database handle; NULL is allowed. */
void cx_database_destroy(cx_database *database) CX_NOEXCEPT;

/** Moves to the latest committed revision; if the stub file now names another database, opens that one. */
cx_status cx_database_reopen(cx_database *database, cx_error **error_out) CX_NOEXCEPT;

/**
 * Adds the database at path (a glass directory or a stub file) to this handle: from then on every read
 * (search, counts, spelling) treats both as one collection, with one set of statistics, so relevance is
 * ranked as if all the documents were in one index.  reopen keeps the added databases.
 */
cx_status cx_database_add(cx_database *database, const char *path, cx_error **error_out) CX_NOEXCEPT;

/** Counts documents of a kind (kind.data == NULL: all). */
cx_status cx_database_document_count(cx_database *database, cx_bytes kind, uint64_t *count_out, cx_error **error_out) CX_NOEXCEPT;

/** Sets *contains_out to 1 if a document with this kind and id exists, else 0. */
cx_status cx_database_contains(cx_database *database, cx_bytes kind, cx_bytes id, int *contains_out, cx_error **error_out) CX_NOEXCEPT;

/** Lists the ids of all documents of a kind, in document order. */
cx_status cx_database_all_ids(cx_database *database, cx_bytes kind, cx_strings **ids_out, cx_error **error_out) CX_NOEXCEPT;

/** Reads the last applied sequence number (0 if never set). */
cx_status cx_database_last_seq(cx_database *database, int64_t *seq_out, cx_error **error_out) CX_NOEXCEPT;

/** Lists the terms of one document, sorted (empty if it does not exist). */
cx_status cx_database_document_terms(cx_database *database, cx_bytes kind, cx_bytes id, cx_strings **terms_out, cx_error **error_out) CX_NOEXCEPT;

/** Lists every word in the spelling table, sorted. */
cx_status cx_database_spellings(cx_database *database, cx_strings **words_out, cx_error **error_out) CX_NOEXCEPT;

/* ---------------------------------------------------------------- search */

/** Options of cx_database_search and cx_database_parse_query, combined with |. */
typedef enum cx_search_flags {
    /** Treat the last word as a prefix unless followed by whitespace. */
    CX_SEARCH_PARTIAL = 1u << 0,
    /** Ask for a spelling correction ("did you mean"); never applied. cx_database_search works it out only when nothing matches. */
    CX_SEARCH_SPELLING = 1u << 1,
    /** Ignore all query syntax: words only, no prefixes, ranges or operators. */
    CX_SEARCH_PLAIN_WORDS = 1u << 2,
    /** Also return documents whose expiry has passed. */
    CX_SEARCH_INCLUDE_EXPIRED = 1u << 3,
    /** A question in ordinary words: documents with every word come first, then the others ranked by BM25 over
     *  any of the words (stopwords dropped), so one extra word no longer finds nothing. */
    CX_SEARCH_NATURAL = 1u << 4,
    /** The total may be an estimate: matching stops once the page is certain (a surface that shows no count). */
    CX_SEARCH_ESTIMATE_TOTAL = 1u << 5
} cx_search_flags;

/** What to search for and how to rank and filter it. */
typedef struct cx_search_options {
    cx_bytes query;
    /** Kinds to search (strings such as "memory"); none means nothing matches. */
    const cx_bytes *kinds;
    size_t kind_count;
    uint32_t offset;
    uint32_t limit;
    /** A combination of cx_search_flags. */
    uint32_t flags;
    /** Unix seconds used for the expiry filter and the decay weight. */
    double now;
    /** Only documents in this context or in no context (data == NULL: no filter). */
    cx_bytes context;
    /** Scale of the remaining-life boost blended into relevance; 0 disables it. */
    double decay_weight;
    /** Target snippet length in bytes; 0 skips snippets. */
    uint32_t snippet_length;
    /** Snippets only for the first this many hits of the page (0: every hit); the rest get none. */
    uint32_t snippet_count;
    /**
     * Only the first this many hits of the page carry their stored data (0: every hit); the rest carry only their
     * identity, which is cheaper to read (GNOME Shell asks for twenty ids and shows five).
     */
    uint32_t detail_count;
} cx_search_options;

/** Marks the start of a highlighted span in snippets; never occurs in indexed text. */
#define CX_HIGHLIGHT_START "\x02"
/** Marks the end of a highlighted span in snippets; never occurs in indexed text. */
#define CX_HIGHLIGHT_END "\x03"

/**
 * One match: stored document data, an HTML-escaped snippet with highlight markers, relevance 0...1. A hit past the
 * search's detail_count has no data (data.data == NULL) and its identity "kind:id" instead.
 */
typedef struct cx_hit {
    cx_bytes data;
    cx_bytes snippet;
    double relevance;
    uint32_t docid;
    cx_bytes identity;
} cx_hit;

/** A page of matches. */
typedef struct cx_results cx_results;

/** Returns how many hits the page holds. */
size_t cx_results_count(const cx_results *results) CX_NOEXCEPT;

/** Returns Xapian's estimate of the total number of matches. */
uint64_t cx_results_estimated_total(const cx_results *results) CX_NOEXCEPT;

/** Returns the spelling-corrected query, or data == NULL if none was found. */
cx_bytes cx_results_corrected_query(const cx_results *results) CX_NOEXCEPT;

/** Copies hit number index into *hit_out (borrowed strings); returns 0 if index is out of range. */
int cx_results_get(const cx_results *results, size_t index, cx_hit *hit_out) CX_NOEXCEPT;

/** Frees a page of matches; NULL is allowed. */
void cx_results_destroy(cx_results *results) CX_NOEXCEPT;

/** Runs a search; a query Xapian cannot parse returns CX_STATUS_QUERY_PARSER_ERROR. */
cx_status cx_database_search(cx_database *database, const cx_search_options *options, cx_results **results_out, cx_error **error_out) CX_NOEXCEPT;

/**
 * The documents among (kinds[i], ids[i]) that pass options' filters (kinds, context, expiry), ranked by options'
 * decay blend, with a snippet for options->query when it matches words of theirs (meaning search: the neighbours
 * found by vectors are checked against the same rules as word matches). options->offset and ->limit apply.
 */
cx_status cx_database_fetch(cx_database *database, const cx_search_options *options, const cx_bytes *kinds,
                            const cx_bytes *ids, size_t count, cx_results **results_out, cx_error **error_out) CX_NOEXCEPT;

/** Parses a query as a search would and returns Xapian's description of it (free with cx_string_free). */
cx_status cx_database_parse_query(cx_database *database, cx_bytes query, uint32_t flags, char **description_out, cx_error **error_out) CX_NOEXCEPT;

/** Frees a string returned by the shim; NULL is allowed. */
void cx_string_free(char *string) CX_NOEXCEPT;

/** Finds memories sharing the most significant words with one document (it excluded), best first. */
cx_status cx_database_related(cx_database *database, cx_bytes kind, cx_bytes id, uint32_t limit, double now, cx_results **results_out, cx_error **error_out) CX_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* CXAPIAN_H */
