// bulk.cc - cx_build_database: a fresh index built on several cores (shards, then one compaction).
#include "shim.h"

#include <exception>
#include <filesystem>
#include <functional>
#include <thread>

namespace {

/// The shard a document goes to: by its unique term, so repeats of one item meet in one shard.
size_t shard_of(const std::string &unique, size_t shards) {
    return std::hash<std::string>{}(unique) % shards;
}

/// Indexes the documents of one shard into a new database at path, one transaction.
void build_shard(const std::string &path, const cx_document_fields *docs, const std::vector<size_t> &indices) {
    Xapian::WritableDatabase db(path, Xapian::DB_CREATE_OR_OVERWRITE);
    Xapian::TermGenerator generator;
    configure_generator(generator);
    db.begin_transaction(false);
    for (size_t i : indices) {
        Xapian::Document doc = build_document(generator, docs[i]);
        db.replace_document(unique_term(to_string(docs[i].kind), to_string(docs[i].id)), doc);
        add_spelling_of(db, doc);
    }
    db.commit_transaction();
    db.commit();
}

}  // namespace

extern "C" {

cx_status cx_build_database(const char *path, const cx_document_fields *docs, size_t count, int64_t last_seq,
                            unsigned threads, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    std::vector<std::string> shard_paths;
    try {
        require(path != nullptr && (docs != nullptr || count == 0), "cx_build_database: path and docs are required");
        const size_t shards = std::max<size_t>(1, std::min<size_t>(threads, 16));
        std::vector<std::vector<size_t>> members(shards);
        for (size_t i = 0; i < count; ++i) {
            require(present(docs[i].kind) && present(docs[i].id), "cx_build_database: every document needs a kind and an id");
            members[shard_of(unique_term(to_string(docs[i].kind), to_string(docs[i].id)), shards)].push_back(i);
        }
        for (size_t s = 0; s < shards; ++s) shard_paths.push_back(std::string(path) + ".shard" + std::to_string(s));

        // Term generation, inversion, spelling and compression run on every shard's thread at once;
        // each thread owns its database and generator (Xapian objects are not shared between threads).
        std::vector<std::exception_ptr> failures(shards);
        std::vector<std::thread> workers;
        for (size_t s = 1; s < shards; ++s)
            workers.emplace_back([&, s] {
                try { build_shard(shard_paths[s], docs, members[s]); } catch (...) { failures[s] = std::current_exception(); }
            });
        try { build_shard(shard_paths[0], docs, members[0]); } catch (...) { failures[0] = std::current_exception(); }
        for (auto &w : workers) w.join();
        for (auto &f : failures)
            if (f) std::rethrow_exception(f);

        // One compaction merges the shards (docids renumbered, spelling frequencies summed) into path.
        Xapian::Database all;
        for (auto &p : shard_paths) all.add_database(Xapian::Database(p));
        all.compact(path);
        all.close();
        Xapian::WritableDatabase out(path, Xapian::DB_OPEN);
        out.set_metadata(CX_LAST_SEQ_KEY, std::to_string(last_seq));
        out.commit();
        out.close();
        for (auto &p : shard_paths) std::filesystem::remove_all(p);
        return CX_STATUS_SUCCESS;
    } catch (...) {
        std::error_code ignored;
        for (auto &p : shard_paths) std::filesystem::remove_all(p, ignored);
        return cx_translate_exception(error_out);
    }
}

}  // extern "C"
