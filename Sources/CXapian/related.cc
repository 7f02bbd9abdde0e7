// related.cc - "more like this": memories sharing the most significant words with one document.
#include "shim.h"

#include <cmath>
#include <memory>

namespace {

/// Terms considered from the seed document.
constexpr Xapian::termcount expand_terms = 20;

/// How many of those terms the elite set keeps.
constexpr Xapian::termcount elite_terms = 10;

/// Accepts only plain, non-stopword words for the expand set (no boolean filters, no stems).
class PlainWordDecider : public Xapian::ExpandDecider {
  public:
    bool operator()(const std::string &term) const override {
        return is_plain_word(term) && !english_stopper()(term);
    }
};

}  // namespace

extern "C" {

cx_status cx_database_related(cx_database *database, cx_bytes kind, cx_bytes id, uint32_t limit, double now,
                              cx_results **results_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && results_out != nullptr && present(kind) && present(id),
                "cx_database_related: database, kind, id and results_out are required");
        require(!std::isnan(now), "cx_database_related: now must be a number");
        *results_out = nullptr;
        auto results = std::make_unique<cx_results>();
        const Xapian::Database &db = database->db;
        std::string seed_term = unique_term(to_string(kind), to_string(id));
        Xapian::docid seed = find_document(db, seed_term);
        if (seed != 0 && limit > 0) {
            Xapian::Enquire enquire(db);
            // Bo1 (divergence from randomness) rather than the default probabilistic weighting: the latter
            // gives no weight to a word found in most documents, so in a small collection where most notes
            // share a subject a new note near-identical to one of them found nothing alike and was never
            // auto-linked. Bo1 still ranks rare words first, and in a large collection picks much the same words.
            enquire.set_expansion_scheme("bo1");
            Xapian::RSet rset;
            rset.add_document(seed);
            PlainWordDecider decider;
            Xapian::ESet eset = enquire.get_eset(expand_terms, rset, &decider);
            if (!eset.empty()) {
                Xapian::Query similar(Xapian::Query::OP_ELITE_SET, eset.begin(), eset.end(), elite_terms);
                Xapian::Query filter(Xapian::Query::OP_AND,
                                     Xapian::Query(make_term(prefix::domain, "memory")),
                                     Xapian::Query(Xapian::Query::OP_VALUE_GE, slot::expiry, Xapian::sortable_serialise(now)));
                enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER,
                                                Xapian::Query(Xapian::Query::OP_AND_NOT, similar, Xapian::Query(seed_term)),
                                                filter));
                collect_hits(enquire.get_mset(0, limit), 0, *results);
            }
        }
        *results_out = results.release();
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

}  // extern "C"
