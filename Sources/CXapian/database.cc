// database.cc - cx_database: opening, reopening and reading an index.
#include "shim.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

std::string read_stub_contents(const std::string &path) {
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::string();
    std::ifstream file(path, std::ios::binary);
    std::ostringstream contents;
    contents << file.rdbuf();
    return contents.str();
}

int64_t read_last_seq(const Xapian::Database &db) {
    std::string value = db.get_metadata(CX_LAST_SEQ_KEY);
    if (value.empty()) return 0;
    try {
        return std::stoll(value);
    } catch (const std::exception &) {
        throw Xapian::DatabaseCorruptError("metadata " CX_LAST_SEQ_KEY " is not a number: " + value);
    }
}

uint64_t count_documents(const Xapian::Database &db, cx_bytes kind) {
    if (!present(kind)) return db.get_doccount();
    return db.get_termfreq(make_term(prefix::domain, lowercase(to_string(kind))));
}

Xapian::docid find_document(const Xapian::Database &db, const std::string &term) {
    // term_exists is cheap on a writer with pending changes; opening a postlist is not.
    if (!db.term_exists(term)) return 0;
    Xapian::PostingIterator p = db.postlist_begin(term);
    return p == db.postlist_end(term) ? 0 : *p;
}

extern "C" {

cx_status cx_database_open(const char *path, cx_database **database_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(path != nullptr && database_out != nullptr, "cx_database_open: path and database_out are required");
        *database_out = nullptr;
        std::string stub = read_stub_contents(path);
        *database_out = new cx_database{path, stub, Xapian::Database(path)};
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

void cx_database_destroy(cx_database *database) noexcept {
    delete database;
}

cx_status cx_database_reopen(cx_database *database, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr, "cx_database_reopen: database is required");
        std::string stub = read_stub_contents(database->path);
        if (stub != database->stub_contents) {
            // A rebuild swapped the stub: the old database may be gone, open the new one (and the added ones).
            Xapian::Database db(database->path);
            for (const std::string &extra : database->added_paths) db.add_database(Xapian::Database(extra));
            database->db = db;
            database->stub_contents = stub;
        } else {
            database->db.reopen();
        }
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_add(cx_database *database, const char *path, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && path != nullptr, "cx_database_add: database and path are required");
        Xapian::Database extra(path);
        database->db.add_database(extra);
        database->added_paths.push_back(path);
        database->expiry_table.reset();
        database->searches_at_revision = 0;
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_document_count(cx_database *database, cx_bytes kind, uint64_t *count_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && count_out != nullptr, "cx_database_document_count: database and count_out are required");
        *count_out = count_documents(database->db, kind);
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_contains(cx_database *database, cx_bytes kind, cx_bytes id, int *contains_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && contains_out != nullptr && present(kind) && present(id),
                "cx_database_contains: database, kind, id and contains_out are required");
        *contains_out = database->db.term_exists(unique_term(to_string(kind), to_string(id))) ? 1 : 0;
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_all_ids(cx_database *database, cx_bytes kind, cx_strings **ids_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && ids_out != nullptr && present(kind), "cx_database_all_ids: database, kind and ids_out are required");
        *ids_out = nullptr;
        const std::string lead = to_string(kind) + ":";
        std::vector<std::string> ids;
        const Xapian::Database &db = database->db;
        for (auto v = db.valuestream_begin(slot::identity); v != db.valuestream_end(slot::identity); ++v) {
            const std::string &identity = *v;
            if (identity.compare(0, lead.size(), lead) == 0) ids.push_back(identity.substr(lead.size()));
        }
        *ids_out = make_strings(std::move(ids));
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_last_seq(cx_database *database, int64_t *seq_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && seq_out != nullptr, "cx_database_last_seq: database and seq_out are required");
        *seq_out = read_last_seq(database->db);
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_document_terms(cx_database *database, cx_bytes kind, cx_bytes id, cx_strings **terms_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && terms_out != nullptr && present(kind) && present(id),
                "cx_database_document_terms: database, kind, id and terms_out are required");
        *terms_out = nullptr;
        std::vector<std::string> terms;
        const Xapian::Database &db = database->db;
        if (Xapian::docid did = find_document(db, unique_term(to_string(kind), to_string(id)))) {
            for (auto t = db.termlist_begin(did); t != db.termlist_end(did); ++t) terms.push_back(*t);
        }
        *terms_out = make_strings(std::move(terms));
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_database_spellings(cx_database *database, cx_strings **words_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(database != nullptr && words_out != nullptr, "cx_database_spellings: database and words_out are required");
        *words_out = nullptr;
        std::vector<std::string> words;
        const Xapian::Database &db = database->db;
        for (auto w = db.spellings_begin(); w != db.spellings_end(); ++w) words.push_back(*w);
        *words_out = make_strings(std::move(words));
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

}  // extern "C"
