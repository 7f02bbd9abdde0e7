// search.cc - cx_database_search and the cx_results page it returns.
#include "shim.h"
#include "decay_source.h"

#include <algorithm>
#include <memory>
#include <cmath>

namespace {

/// Items lose their decay boost over this many seconds before expiry (365 days).
constexpr double decay_horizon = 365.0 * 24 * 3600;

/// Snippets are taken from at most this many leading bytes of a body, so a huge body stays fast.
constexpr size_t snippet_source_limit = 64 * 1024;

/// Estimates of the total are exact up to at least this many matches.
constexpr Xapian::doccount min_check_at_least = 100;

/// The text a snippet is cut from: the body, capped and without the highlight markers.
std::string snippet_source(const std::string &data) {
    size_t blank = data.find("\n\n");
    if (blank == std::string::npos) return std::string();
    std::string body = data.substr(blank + 2, snippet_source_limit + 1);
    if (body.size() > snippet_source_limit) {
        size_t cut = snippet_source_limit;
        while (cut > 0 && (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80) --cut;
        body.resize(cut);
    }
    body.erase(std::remove_if(body.begin(), body.end(), [](char c) { return c == '\x02' || c == '\x03'; }), body.end());
    return body;
}

/// Whether the kinds asked for cover every document (each document has exactly one kind term), so the
/// kinds filter would keep everything and is better left out.
bool kinds_cover_everything(const Xapian::Database &db, const std::vector<std::string> &terms) {
    Xapian::doccount total = db.get_doccount();
    uint64_t sum = 0;
    for (const std::string &term : terms) sum += db.get_termfreq(term);
    return total > 0 && sum == total;
}

/// The boolean filter for kinds, context and expiry; empty when nothing would be filtered out.
///
/// Filters that cannot remove anything are left out, since each costs a check per match: kinds that cover
/// every document, and the expiry filter when no document expires before now (the daemon's sweep removes
/// expired documents, so this is the usual case). With an expiry table the filter reads from it.
Xapian::Query build_filter(const Xapian::Database &db, const cx_search_options &options,
                           const std::shared_ptr<const ExpiryTable> &table) {
    std::vector<std::string> terms;
    for (size_t i = 0; i < options.kind_count; ++i)
        terms.push_back(make_term(prefix::domain, lowercase(to_string(options.kinds[i]))));
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    std::vector<Xapian::Query> parts;
    if (!kinds_cover_everything(db, terms)) {
        parts.emplace_back(Xapian::Query::OP_OR, terms.begin(), terms.end());
    }
    if (present(options.context)) {
        parts.emplace_back(Xapian::Query::OP_OR,
                           Xapian::Query(make_term(prefix::context, lowercase(to_string(options.context)))),
                           Xapian::Query(prefix::no_context));
    }
    if (!(options.flags & CX_SEARCH_INCLUDE_EXPIRED)) {
        const std::string limit = Xapian::sortable_serialise(options.now);
        const std::string lowest = db.get_value_lower_bound(slot::expiry);
        // Every document has an expiry, so a lower bound at or after now means none has expired.
        bool none_expired = !lowest.empty() && lowest >= limit && db.get_value_freq(slot::expiry) == db.get_doccount();
        if (!none_expired) {
            if (table) {
                parts.emplace_back((new TableDecaySource(table, options.now, 1, true))->release());
                parts.back() = Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, parts.back(), 0);
            } else {
                parts.emplace_back(Xapian::Query::OP_VALUE_GE, slot::expiry, limit);
            }
        }
    }
    if (parts.empty()) return Xapian::Query();
    return Xapian::Query(Xapian::Query::OP_AND, parts.begin(), parts.end());
}

/// The expiry table for this search: shared by the searches of one revision, built by the second of them.
///
/// Building it reads every document's expiry once (milliseconds at tens of thousands of documents), which
/// pays off only if the reader searches the revision again, as the daemon and providers do while the user
/// types; a one-shot `engram search` never builds it.
std::shared_ptr<const ExpiryTable> expiry_table_for(cx_database &database) {
    Xapian::rev revision;
    std::string uuid;
    try {
        revision = database.db.get_revision();
        uuid = database.db.get_uuid();
    } catch (const Xapian::InvalidOperationError &) {
        return nullptr;  // not a single database: no revision to key the table on
    }
    if (revision != database.searched_revision || uuid != database.searched_uuid || !database.searches_at_revision) {
        database.expiry_table.reset();
        database.searched_revision = revision;
        database.searched_uuid = uuid;
        database.searches_at_revision = 0;
    }
    if (database.searches_at_revision < 2) ++database.searches_at_revision;
    if (!database.expiry_table && database.searches_at_revision >= 2)
        database.expiry_table = ExpiryTable::load(database.db, slot::expiry);
    return database.expiry_table;
}

}  // namespace

Xapian::Query blend_decay(const Xapian::Query &query, double now, double weight,
                          const std::shared_ptr<const ExpiryTable> &table) {
    if (!(weight > 0) || !std::isfinite(weight)) return query;
    Xapian::Query decay(table ? (new TableDecaySource(table, now, decay_horizon, false))->release()
                              : (new ExpiryDecaySource(slot::expiry, now, decay_horizon))->release());
    return Xapian::Query(Xapian::Query::OP_AND_MAYBE, query, Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, decay, weight));
}

/// The hits of an mset, with snippets of `snippet_length` bytes for the first `snippet_count` of them (each is a
/// pass over the text, stemming every word: the desktop shows five of twenty results), and stored data for the
/// first `detail_count` (the others carry their identity value, read without the compressed data).
void collect_hits(const Xapian::MSet &mset, uint32_t snippet_length, cx_results &results, size_t snippet_count,
                  size_t detail_count) {
    Xapian::Stem stemmer("english");
    results.estimated_total = mset.get_matches_estimated();
    size_t index = 0;
    for (auto m = mset.begin(); m != mset.end(); ++m, ++index) {
        cx_results::Hit hit;
        if (index < detail_count) {
            hit.data = m.get_document().get_data();
        } else {
            hit.has_data = false;
            hit.identity = m.get_document().get_value(slot::identity);
        }
        hit.relevance = std::clamp(m.get_percent() / 100.0, 0.0, 1.0);
        hit.docid = *m;
        if (snippet_length > 0 && index < snippet_count && hit.has_data) {
            // No SNIPPET_BACKGROUND_MODEL: where every word is common it shrinks the
            // snippet to the bare match; without it the snippet is filled with context.
            hit.snippet = mset.snippet(snippet_source(hit.data), snippet_length, stemmer,
                                       Xapian::MSet::SNIPPET_EXHAUSTIVE, CX_HIGHLIGHT_START, CX_HIGHLIGHT_END,
                                       "\u2026");
        }
        results.hits.push_back(std::move(hit));
    }
}

extern "C" {

cx_status cx_database_search(cx_database *database, const cx_search_options *options, cx_results **results_out,
                             cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && options != nullptr && results_out != nullptr,
                "cx_database_search: database, options and results_out are required");
        require(present(options->query), "cx_database_search: query is required");
        require(options->kind_count == 0 || options->kinds != nullptr, "cx_database_search: kinds pointer is NULL");
        require(!std::isnan(options->now), "cx_database_search: now must be a number");
        *results_out = nullptr;

        auto results = std::make_unique<cx_results>();
        std::string corrected;
        // A spelling suggestion costs milliseconds at tens of thousands of words (trigram lookups for
        // every word), so it is only worked out when the query as typed finds nothing (below).
        const uint32_t flags = options->flags & ~uint32_t(CX_SEARCH_SPELLING);
        Xapian::Query query = parse_user_query(database->db, to_string(options->query), flags & ~uint32_t(CX_SEARCH_NATURAL), nullptr);
        if (!query.empty() && options->kind_count > 0 && options->limit > 0) {
            std::shared_ptr<const ExpiryTable> table = expiry_table_for(*database);
            Xapian::Query filter = build_filter(database->db, *options, table);
            auto run = [&](const Xapian::Query &q, Xapian::doccount first, Xapian::doccount count) {
                Xapian::Enquire enquire(database->db);
                Xapian::Query ranked = blend_decay(q, options->now, options->decay_weight, table);
                enquire.set_query(filter.empty() ? ranked : Xapian::Query(Xapian::Query::OP_FILTER, ranked, filter));
                uint64_t wanted = uint64_t(first) + count;
                uint64_t floor = (flags & CX_SEARCH_ESTIMATE_TOTAL) ? 0 : min_check_at_least;
                auto check_at_least = Xapian::doccount(std::min<uint64_t>(std::max<uint64_t>(wanted, floor), UINT32_MAX));
                return enquire.get_mset(first, count, check_at_least);
            };
            const size_t snippets = options->snippet_count ? options->snippet_count : SIZE_MAX;
            const size_t details = options->detail_count ? options->detail_count : SIZE_MAX;
            Xapian::MSet mset = run(query, options->offset, options->limit);
            collect_hits(mset, options->snippet_length, *results, snippets, details);
            // A natural question: when the documents with every word do not fill the page, the rest of it is the
            // documents with some of the words, best first (BM25 over OR), after every all-words document.
            const uint64_t all_words = mset.get_matches_estimated();
            const uint64_t end = uint64_t(options->offset) + options->limit;
            if ((flags & CX_SEARCH_NATURAL) && all_words < end) {
                Xapian::Query any = parse_user_query(database->db, to_string(options->query), flags, nullptr);
                if (!any.empty()) {
                    Xapian::Query rest(Xapian::Query::OP_AND_NOT, any, query);
                    uint64_t first = options->offset > all_words ? options->offset - all_words : 0;
                    uint64_t count = end - std::max<uint64_t>(options->offset, all_words);
                    Xapian::MSet more = run(rest, Xapian::doccount(first), Xapian::doccount(count));
                    cx_results extra;
                    collect_hits(more, options->snippet_length, extra,
                                 snippets > results->hits.size() ? snippets - results->hits.size() : 0,
                                 details > results->hits.size() ? details - results->hits.size() : 0);
                    // Ranked after every all-words document: relevance is scaled below the last of those.
                    double ceiling = results->hits.empty() ? 0.9 : std::min(0.9, results->hits.back().relevance) * 0.95;
                    for (auto &hit : extra.hits) {
                        hit.relevance *= ceiling;
                        results->hits.push_back(std::move(hit));
                    }
                    results->estimated_total = all_words + extra.estimated_total;
                }
            }
        }
        const bool spelling = options->flags & CX_SEARCH_SPELLING;
        if (spelling && results->estimated_total == 0) {
            parse_user_query(database->db, to_string(options->query), options->flags, &corrected);
            if (!corrected.empty()) {
                results->corrected = corrected;
                results->has_corrected = true;
            }
        }
        // Xapian never corrects the word being typed (the partial last word). When
        // nothing matches, correct it as a finished word so "did you mean" can help.
        bool typing = (options->flags & CX_SEARCH_PARTIAL) && spelling;
        if (typing && !results->has_corrected && results->estimated_total == 0) {
            std::string finished = to_string(options->query) + " ";
            parse_user_query(database->db, finished, options->flags & ~uint32_t(CX_SEARCH_PARTIAL), &corrected);
            while (!corrected.empty() && corrected.back() == ' ') corrected.pop_back();
            if (!corrected.empty()) {
                results->corrected = corrected;
                results->has_corrected = true;
            }
        }
        *results_out = results.release();
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_fetch(cx_database *database, const cx_search_options *options, const cx_bytes *kinds,
                            const cx_bytes *ids, size_t count, cx_results **results_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && options != nullptr && results_out != nullptr,
                "cx_database_fetch: database, options and results_out are required");
        require(count == 0 || (kinds != nullptr && ids != nullptr), "cx_database_fetch: kinds and ids are required");
        require(!std::isnan(options->now), "cx_database_fetch: now must be a number");
        *results_out = nullptr;
        auto results = std::make_unique<cx_results>();
        std::vector<std::string> terms;
        for (size_t i = 0; i < count; ++i) terms.push_back(unique_term(to_string(kinds[i]), to_string(ids[i])));
        if (!terms.empty() && options->kind_count > 0 && options->limit > 0) {
            std::shared_ptr<const ExpiryTable> table = expiry_table_for(*database);
            Xapian::Query chosen(Xapian::Query::OP_OR, terms.begin(), terms.end());
            Xapian::Query ranked = blend_decay(Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, chosen, 0),
                                               options->now, options->decay_weight, table);
            Xapian::Query filter = build_filter(database->db, *options, table);
            Xapian::Enquire enquire(database->db);
            enquire.set_query(filter.empty() ? ranked : Xapian::Query(Xapian::Query::OP_FILTER, ranked, filter));
            Xapian::MSet mset = enquire.get_mset(options->offset, options->limit, Xapian::doccount(terms.size()));
            // Snippets come from the words of the query the documents share, if any (the mset knows none).
            if (present(options->query) && options->snippet_length > 0) {
                Xapian::Query words = parse_user_query(database->db, to_string(options->query),
                                                       CX_SEARCH_NATURAL | CX_SEARCH_PLAIN_WORDS, nullptr);
                Xapian::Enquire probe(database->db);
                probe.set_query(Xapian::Query(Xapian::Query::OP_FILTER, words, chosen));
                Xapian::MSet matched = probe.get_mset(0, Xapian::doccount(terms.size()));
                Xapian::Stem stemmer("english");
                results->estimated_total = mset.get_matches_estimated();
                for (auto m = mset.begin(); m != mset.end(); ++m) {
                    cx_results::Hit hit;
                    hit.data = m.get_document().get_data();
                    hit.relevance = 0;
                    hit.docid = *m;
                    hit.snippet = matched.snippet(snippet_source(hit.data), options->snippet_length, stemmer,
                                                  Xapian::MSet::SNIPPET_EXHAUSTIVE, CX_HIGHLIGHT_START,
                                                  CX_HIGHLIGHT_END, "\u2026");
                    results->hits.push_back(std::move(hit));
                }
            } else {
                collect_hits(mset, 0, *results);
                for (auto &hit : results->hits) hit.relevance = 0;
            }
        }
        *results_out = results.release();
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

size_t cx_results_count(const cx_results *results) noexcept {
    return results ? results->hits.size() : 0;
}

uint64_t cx_results_estimated_total(const cx_results *results) noexcept {
    return results ? results->estimated_total : 0;
}

cx_bytes cx_results_corrected_query(const cx_results *results) noexcept {
    if (!results || !results->has_corrected) return cx_bytes{nullptr, 0};
    return cx_bytes{results->corrected.data(), results->corrected.size()};
}

int cx_results_get(const cx_results *results, size_t index, cx_hit *hit_out) noexcept {
    if (!results || !hit_out || index >= results->hits.size()) return 0;
    const cx_results::Hit &hit = results->hits[index];
    hit_out->data = hit.has_data ? cx_bytes{hit.data.data(), hit.data.size()} : cx_bytes{nullptr, 0};
    hit_out->identity = hit.has_data ? cx_bytes{nullptr, 0} : cx_bytes{hit.identity.data(), hit.identity.size()};
    hit_out->snippet = cx_bytes{hit.snippet.data(), hit.snippet.size()};
    hit_out->relevance = hit.relevance;
    hit_out->docid = hit.docid;
    return 1;
}

void cx_results_destroy(cx_results *results) noexcept {
    delete results;
}

}  // extern "C"
