// shim.h - private C++ declarations shared by the shim's translation units.
#ifndef CXAPIAN_SHIM_H
#define CXAPIAN_SHIM_H

#include "cxapian.h"

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

/// Value slots of every document.
namespace slot {
/// Creation time, sortable_serialise(Unix seconds).
constexpr Xapian::valueno created = 0;
/// Creation day "YYYYMMDD" for DateRangeProcessor.
constexpr Xapian::valueno created_day = 1;
/// Expiry, sortable_serialise(Unix seconds); CX_EXPIRY_NEVER when it never expires.
constexpr Xapian::valueno expiry = 2;
/// Identity "kind:id", untruncated (terms are limited to 245 bytes, values are not).
constexpr Xapian::valueno identity = 3;
}  // namespace slot

/// Term prefixes (omega conventions: one capital letter, or X + capitals).
namespace prefix {
constexpr const char *unique = "Q";
constexpr const char *domain = "XDOM";
constexpr const char *tag = "K";
constexpr const char *type = "XTYPE";
constexpr const char *context = "XCTX";
constexpr const char *no_context = "XNOCTX";
constexpr const char *curriculum = "XCURR";
constexpr const char *title = "S";
}  // namespace prefix

/// Maps the exception being handled to a status and fills *error_out; call only inside catch.
cx_status cx_translate_exception(cx_error **error_out) noexcept;

/// Throws Xapian::InvalidArgumentError with message unless condition holds.
void require(bool condition, const char *message);

/// Copies a present cx_bytes into a string (absent gives "").
std::string to_string(cx_bytes bytes);

/// True if the cx_bytes is present (data != NULL).
inline bool present(cx_bytes bytes) { return bytes.data != nullptr; }

/// Builds prefix+value, inserting ':' when value starts with a capital or ':' and
/// shortening values that would exceed Xapian's term limit to a prefix plus a hash.
std::string make_term(const std::string &prefix, const std::string &value);

/// Lowercases UTF-8 text the way the query side does (Xapian::Unicode::tolower).
std::string lowercase(const std::string &text);

/// The unique term of a document.
std::string unique_term(const std::string &kind, const std::string &id);

/// True for terms produced from free text without a prefix (the spelling words).
bool is_plain_word(const std::string &term);

/// Reads the last applied sequence number from any database.
int64_t read_last_seq(const Xapian::Database &db);

/// Counts documents of a kind (absent: all).
uint64_t count_documents(const Xapian::Database &db, cx_bytes kind);

/// The first docid carrying term, or 0.
Xapian::docid find_document(const Xapian::Database &db, const std::string &term);

/// Copies strings into a new cx_strings.
cx_strings *make_strings(std::vector<std::string> &&strings);

/// A page of matches with owned strings.
struct cx_results {
    struct Hit {
        std::string data;
        /// False for a hit past the search's detail count: `identity` ("kind:id") instead of `data`.
        bool has_data = true;
        std::string identity;
        std::string snippet;
        double relevance;
        Xapian::docid docid;
    };
    std::vector<Hit> hits;
    uint64_t estimated_total = 0;
    std::string corrected;
    bool has_corrected = false;
};

/// An owned list of strings.
struct cx_strings {
    std::vector<std::string> items;
};

struct ExpiryTable;

/// The read-only handle: the database, what reopen needs to follow a swapped stub, and the expiry table
/// searches share while the revision stays the same.
struct cx_database {
    std::string path;
    std::string stub_contents;
    Xapian::Database db;
    /// Databases added with cx_database_add, searched together with the one at path.
    std::vector<std::string> added_paths;
    /// Every document's expiry at table_revision (built by the second search of a revision; see search.cc).
    std::shared_ptr<const ExpiryTable> expiry_table;
    /// The revision (and database uuid) the searches below were counted at.
    Xapian::rev searched_revision = 0;
    std::string searched_uuid;
    unsigned searches_at_revision = 0;
};

/// The writer handle: database, term generator and the open-transaction flag.
struct cx_writer {
    Xapian::WritableDatabase db;
    Xapian::TermGenerator generator;
    bool in_transaction = false;
};

/// Sets Engram's term generation: English stemmer, STEM_SOME (the writer and bulk builds share it).
void configure_generator(Xapian::TermGenerator &generator);

/// Builds the document for fields (terms, values, data) with the generator's settings.
Xapian::Document build_document(Xapian::TermGenerator &generator, const cx_document_fields &fields);

/// Adds one to the spelling frequency of each plain word of doc.
void add_spelling_of(Xapian::WritableDatabase &db, const Xapian::Document &doc);

/// Subtracts one from the spelling frequency of each plain word of doc (removing words that reach 0).
void remove_spelling_of(Xapian::WritableDatabase &db, const Xapian::Document &doc);

/// Parses what the user typed with Engram's syntax (cx_search_flags); *corrected gets the spelling correction.
Xapian::Query parse_user_query(const Xapian::Database &db, const std::string &text, uint32_t flags,
                               std::string *corrected);

/// Blends relevance with the remaining-life boost: AND_MAYBE(query, SCALE_WEIGHT(decay, k)); k <= 0 leaves query as is.
/// With a table the decay is read from it instead of the expiry slot (same weights).
Xapian::Query blend_decay(const Xapian::Query &query, double now, double weight,
                          const std::shared_ptr<const ExpiryTable> &table = nullptr);

/// Copies an MSet page into results, with snippets when snippet_length > 0.
void collect_hits(const Xapian::MSet &mset, uint32_t snippet_length, cx_results &results, size_t snippet_count = SIZE_MAX,
                  size_t detail_count = SIZE_MAX);

/// The shared English stopword list used by query parsing and related-item selection.
const Xapian::Stopper &english_stopper();

/// Reads a stub file's contents, or "" if path is not a regular file.
std::string read_stub_contents(const std::string &path);

#endif
