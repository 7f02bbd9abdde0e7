// writer.cc - cx_writer: the single writer (replace, delete, sweep, commit).
#include "shim.h"

#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <memory>
#include <unistd.h>

namespace {

/// Groups every change until the next commit into one transaction, so that
/// Xapian's automatic flush never makes documents durable without the sequence number.
void begin_changes(cx_writer &writer) {
    if (!writer.in_transaction) {
        writer.db.begin_transaction(false);
        writer.in_transaction = true;
    }
}

/// Deletes one document by docid after removing its spelling contribution.
void delete_with_spelling(Xapian::WritableDatabase &db, Xapian::docid did) {
    remove_spelling_of(db, db.get_document(did));
    db.delete_document(did);
}

}  // namespace

extern "C" {

cx_status cx_writer_open(const char *path, int create, cx_writer **writer_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(path != nullptr && writer_out != nullptr, "cx_writer_open: path and writer_out are required");
        *writer_out = nullptr;
        // No DB_RETRY_LOCK: a held lock must fail at once, not block.
        int flags = create ? Xapian::DB_CREATE_OR_OPEN : Xapian::DB_OPEN;
        auto writer = std::make_unique<cx_writer>(cx_writer{Xapian::WritableDatabase(path, flags), Xapian::TermGenerator(), false});
        configure_generator(writer->generator);
        *writer_out = writer.release();
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

void cx_writer_destroy(cx_writer *writer) noexcept {
    if (!writer) return;
    try {
        if (writer->in_transaction) writer->db.cancel_transaction();
        writer->db.close();
    } catch (...) {
        // Destroying must not fail; the lock is released when the handle goes.
    }
    delete writer;
}

cx_status cx_writer_replace(cx_writer *writer, const cx_document_fields *fields, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr && fields != nullptr, "cx_writer_replace: writer and fields are required");
        Xapian::Document doc = build_document(writer->generator, *fields);
        std::string term = unique_term(to_string(fields->kind), to_string(fields->id));
        begin_changes(*writer);
        if (Xapian::docid old = find_document(writer->db, term))
            remove_spelling_of(writer->db, writer->db.get_document(old));
        writer->db.replace_document(term, doc);
        add_spelling_of(writer->db, doc);
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_delete(cx_writer *writer, cx_bytes kind, cx_bytes id, int *deleted_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr && present(kind) && present(id), "cx_writer_delete: writer, kind and id are required");
        if (deleted_out) *deleted_out = 0;
        Xapian::docid did = find_document(writer->db, unique_term(to_string(kind), to_string(id)));
        if (did == 0) return CX_STATUS_SUCCESS;
        begin_changes(*writer);
        delete_with_spelling(writer->db, did);
        if (deleted_out) *deleted_out = 1;
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_delete_kind(cx_writer *writer, cx_bytes kind, uint64_t *count_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr && present(kind), "cx_writer_delete_kind: writer and kind are required");
        if (count_out) *count_out = 0;
        std::string term = make_term(prefix::domain, lowercase(to_string(kind)));
        std::vector<Xapian::docid> docids;
        for (auto p = writer->db.postlist_begin(term); p != writer->db.postlist_end(term); ++p)
            docids.push_back(*p);
        if (docids.empty()) return CX_STATUS_SUCCESS;
        begin_changes(*writer);
        for (Xapian::docid did : docids) delete_with_spelling(writer->db, did);
        if (count_out) *count_out = docids.size();
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_sweep_expired(cx_writer *writer, double now, cx_strings **removed_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr && removed_out != nullptr, "cx_writer_sweep_expired: writer and removed_out are required");
        require(!std::isnan(now), "cx_writer_sweep_expired: now must be a number");
        *removed_out = nullptr;
        const std::string limit = Xapian::sortable_serialise(now);
        std::vector<Xapian::docid> expired;
        for (auto v = writer->db.valuestream_begin(slot::expiry); v != writer->db.valuestream_end(slot::expiry); ++v) {
            // sortable_serialise preserves order, so byte order is numeric order.
            if (*v < limit) expired.push_back(v.get_docid());
        }
        std::vector<std::string> removed;
        removed.reserve(expired.size());
        if (!expired.empty()) begin_changes(*writer);
        for (Xapian::docid did : expired) {
            Xapian::Document doc = writer->db.get_document(did);
            removed.push_back(doc.get_value(slot::identity));
            remove_spelling_of(writer->db, doc);
            writer->db.delete_document(did);
        }
        *removed_out = make_strings(std::move(removed));
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_commit(cx_writer *writer, int64_t last_seq, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr, "cx_writer_commit: writer is required");
        begin_changes(*writer);
        writer->db.set_metadata(CX_LAST_SEQ_KEY, std::to_string(last_seq));
        // If committing fails Xapian cancels the transaction, so it is over either way.
        writer->in_transaction = false;
        writer->db.commit_transaction();
        writer->db.commit();
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_mark_compact_due(cx_writer *writer, double now, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr, "cx_writer_mark_compact_due: writer is required");
        begin_changes(*writer);
        if (writer->db.get_metadata(CX_COMPACT_DUE_KEY).empty())
            writer->db.set_metadata(CX_COMPACT_DUE_KEY, std::to_string(now));
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_compact_due(cx_writer *writer, double *since_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr && since_out != nullptr, "cx_writer_compact_due: writer and since_out are required");
        std::string value = writer->db.get_metadata(CX_COMPACT_DUE_KEY);
        *since_out = value.empty() ? 0 : std::max(1.0, std::strtod(value.c_str(), nullptr));
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_compact_database(const char *source, const char *dest, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(source != nullptr && dest != nullptr, "cx_compact_database: source and dest are required");
        {
            Xapian::Database db(source);
            db.compact(dest, Xapian::DBCOMPACT_NO_RENUMBER);
        }
        // The copy is compacted, so nothing deleted is in it: it is not due any more. This commit rewrites only
        // the metadata's blocks of the fresh copy.
        // The copy is new and no other process knows it, so a lock on it is this process's own echo: a child that
        // another thread is starting holds copies of every descriptor until it execs, and Xapian's lock (an
        // open-file-description lock) lives while any copy is open. Wait for it, up to a second.
        std::unique_ptr<Xapian::WritableDatabase> out;
        for (int tries = 0; !out; ++tries) {
            try {
                out = std::make_unique<Xapian::WritableDatabase>(dest, Xapian::DB_OPEN);
            } catch (const Xapian::DatabaseLockError &) {
                if (tries >= 200) throw;
                usleep(5000);
            }
        }
        if (!out->get_metadata(CX_COMPACT_DUE_KEY).empty()) {
            out->set_metadata(CX_COMPACT_DUE_KEY, std::string());
            out->commit();
        }
        out->close();
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_last_seq(cx_writer *writer, int64_t *seq_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr && seq_out != nullptr, "cx_writer_last_seq: writer and seq_out are required");
        *seq_out = read_last_seq(writer->db);
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

cx_status cx_writer_document_count(cx_writer *writer, cx_bytes kind, uint64_t *count_out, cx_error **error_out) noexcept {
    if (error_out) *error_out = nullptr;
    try {
        require(writer != nullptr && count_out != nullptr, "cx_writer_document_count: writer and count_out are required");
        *count_out = count_documents(writer->db, kind);
        return CX_STATUS_SUCCESS;
    } catch (...) {
        return cx_translate_exception(error_out);
    }
}

}  // extern "C"
