// document.cc - building a Xapian document from cx_document_fields, and its spelling contribution.
#include "shim.h"

#include <cmath>

namespace {

/// Positions skipped between title and body so phrases cannot span the two.
constexpr Xapian::termpos field_gap = 100;

}  // namespace

void configure_generator(Xapian::TermGenerator &generator) {
    generator.set_stemmer(Xapian::Stem("english"));
    generator.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
}

Xapian::Document build_document(Xapian::TermGenerator &generator, const cx_document_fields &fields) {
    require(present(fields.kind) && fields.kind.length > 0, "document kind is required");
    require(present(fields.id) && fields.id.length > 0, "document id is required");
    require(fields.tag_count == 0 || fields.tags != nullptr, "tags pointer is NULL");
    require(!std::isnan(fields.created) && !std::isnan(fields.expiry), "created and expiry must be numbers");

    const std::string kind = to_string(fields.kind);
    const std::string id = to_string(fields.id);
    const std::string title = to_string(fields.title);

    Xapian::Document doc;
    doc.set_data(to_string(fields.data));

    const std::string body = to_string(fields.body);
    generator.set_document(doc);
    // The title's prefixed copy (for `title:`) is indexed with no within-document frequency: it matches and keeps
    // its positions, but adds nothing to the document's length. Counted, it made every document look longer by its
    // first line, and BM25's length normalisation ranked known items lower than plain BM25 does (Debian set MRR@10
    // 0.834 against 0.836 over the same text; `bench.words_vs_bm25`).
    generator.index_text(title, 0, prefix::title);
    // A memory's title is its first line, already in the body: index it once.
    if (body.compare(0, title.size(), title) != 0) {
        generator.index_text(title);
        generator.increase_termpos(field_gap);
    }
    generator.index_text(body);

    doc.add_boolean_term(unique_term(kind, id));
    doc.add_boolean_term(make_term(prefix::domain, lowercase(kind)));
    for (size_t i = 0; i < fields.tag_count; ++i) {
        std::string tag = lowercase(to_string(fields.tags[i]));
        if (!tag.empty()) doc.add_boolean_term(make_term(prefix::tag, tag));
    }
    if (present(fields.type) && fields.type.length > 0)
        doc.add_boolean_term(make_term(prefix::type, lowercase(to_string(fields.type))));
    if (present(fields.context) && fields.context.length > 0)
        doc.add_boolean_term(make_term(prefix::context, lowercase(to_string(fields.context))));
    else
        doc.add_boolean_term(prefix::no_context);
    if (present(fields.curriculum) && fields.curriculum.length > 0)
        doc.add_boolean_term(make_term(prefix::curriculum, to_string(fields.curriculum)));

    double expiry = std::isfinite(fields.expiry) ? fields.expiry : CX_EXPIRY_NEVER;
    doc.add_value(slot::created, Xapian::sortable_serialise(fields.created));
    doc.add_value(slot::created_day, to_string(fields.created_day));
    doc.add_value(slot::expiry, Xapian::sortable_serialise(expiry));
    doc.add_value(slot::identity, kind + ":" + id);
    return doc;
}

// Spelling frequency counts documents: each plain word of a document adds one,
// so removing a document subtracts exactly what it added.

void add_spelling_of(Xapian::WritableDatabase &db, const Xapian::Document &doc) {
    for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
        const std::string &term = *t;
        if (is_plain_word(term)) db.add_spelling(term, 1);
    }
}

void remove_spelling_of(Xapian::WritableDatabase &db, const Xapian::Document &doc) {
    for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
        const std::string &term = *t;
        if (is_plain_word(term)) db.remove_spelling(term, 1);
    }
}
