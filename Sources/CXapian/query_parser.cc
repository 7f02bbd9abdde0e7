// query_parser.cc - the query syntax users type: prefixes, date ranges, partial words, spelling.
#include "shim.h"

namespace {

/// Turns "tag:Work" into the boolean term the indexer wrote for it.
class BooleanFieldProcessor : public Xapian::FieldProcessor {
  public:
    BooleanFieldProcessor(std::string term_prefix, bool fold_case)
        : term_prefix_(std::move(term_prefix)), fold_case_(fold_case) {}

    Xapian::Query operator()(const std::string &value) override {
        std::string folded = fold_case_ ? lowercase(value) : value;
        if (folded.empty()) return Xapian::Query::MatchNothing;
        return Xapian::Query(make_term(term_prefix_, folded));
    }

  private:
    std::string term_prefix_;
    bool fold_case_;
};

/// Registers a boolean field; exclusive fields OR repeated filters, others AND them.
void add_field(Xapian::QueryParser &parser, const char *field, const char *term_prefix, bool fold_case, bool exclusive) {
    parser.add_boolean_prefix(field, (new BooleanFieldProcessor(term_prefix, fold_case))->release(), exclusive);
}

/// Partial and wildcard words expand to at most this many terms (the most frequent).
constexpr Xapian::termcount max_expansion = 100;

/// A query may hold at most this many wildcard and partial words: each expands to up to max_expansion terms,
/// and thousands of them ANDed ("a* a* a* …" within the size limit) took seconds to match.
constexpr size_t max_wildcards = 24;

/// How many OP_WILDCARD nodes a parsed query holds.
size_t count_wildcards(const Xapian::Query &query) {
    if (query.get_type() == Xapian::Query::OP_WILDCARD) return 1;
    size_t count = 0;
    for (size_t i = 0; i < query.get_num_subqueries(); ++i) count += count_wildcards(query.get_subquery(i));
    return count;
}

/// Spelling correction is skipped for queries longer than this many bytes (it costs per word).
constexpr size_t max_spelling_query = 256;

}  // namespace

Xapian::Query parse_user_query(const Xapian::Database &db, const std::string &text, uint32_t flags,
                               std::string *corrected) {
    Xapian::QueryParser parser;
    parser.set_database(db);
    parser.set_stemmer(Xapian::Stem("english"));
    parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
    parser.set_default_op((flags & CX_SEARCH_NATURAL) ? Xapian::Query::OP_OR : Xapian::Query::OP_AND);
    parser.set_stopper(&english_stopper());
    parser.set_max_expansion(max_expansion, Xapian::Query::WILDCARD_LIMIT_MOST_FREQUENT,
                             Xapian::QueryParser::FLAG_PARTIAL | Xapian::QueryParser::FLAG_WILDCARD);

    unsigned parser_flags = 0;
    if (!(flags & CX_SEARCH_PLAIN_WORDS)) {
        parser.add_prefix("title", prefix::title);
        add_field(parser, "tag", prefix::tag, true, false);
        add_field(parser, "type", prefix::type, true, true);
        add_field(parser, "ctx", prefix::context, true, true);
        add_field(parser, "in", prefix::curriculum, false, true);
        add_field(parser, "kind", prefix::domain, true, true);
        parser.add_rangeprocessor((new Xapian::DateRangeProcessor(slot::created_day, "created:"))->release());
        parser_flags |= Xapian::QueryParser::FLAG_DEFAULT | Xapian::QueryParser::FLAG_WILDCARD;
    }
    if (flags & CX_SEARCH_PARTIAL) parser_flags |= Xapian::QueryParser::FLAG_PARTIAL;
    bool spelling = (flags & CX_SEARCH_SPELLING) && text.size() <= max_spelling_query;
    if (spelling) parser_flags |= Xapian::QueryParser::FLAG_SPELLING_CORRECTION;

    Xapian::Query query = parser.parse_query(text, parser_flags);
    size_t wildcards = count_wildcards(query);
    if (wildcards > max_wildcards) {
        throw Xapian::QueryParserError("the query has " + std::to_string(wildcards) + " wildcard words; at most " +
                                       std::to_string(max_wildcards) + " are allowed");
    }
    if (corrected) *corrected = spelling ? parser.get_corrected_query_string() : std::string();
    return query;
}

extern "C" {

cx_status cx_database_parse_query(cx_database *database, cx_bytes query, uint32_t flags, char **description_out,
                                  cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && description_out != nullptr && present(query),
                "cx_database_parse_query: database, query and description_out are required");
        *description_out = nullptr;
        std::string description = parse_user_query(database->db, to_string(query), flags, nullptr).get_description();
        char *copy = new char[description.size() + 1];
        std::copy(description.begin(), description.end(), copy);
        copy[description.size()] = '\0';
        *description_out = copy;
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

}  // extern "C"
