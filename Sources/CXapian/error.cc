// error.cc - the one exception translator, and the cx_error accessors.
#include "shim.h"

#include <new>
#include <typeinfo>

struct cx_error {
    cx_status status;
    std::string type;
    std::string message;
};

namespace {

/// Stores a new error in *error_out if the caller asked for one; never throws.
cx_status report(cx_error **error_out, cx_status status, const char *type,
                 const std::string &message) noexcept {
    if (error_out == nullptr) return status;
    *error_out = nullptr;
    try {
        *error_out = new cx_error{status, type, message};
    } catch (...) {
        // Out of memory while reporting: the status alone must do.
    }
    return status;
}

/// Formats a Xapian::Error's message with its context and errno text.
std::string describe(const Xapian::Error &e) {
    std::string message = e.get_msg();
    if (!e.get_context().empty()) message += " (context: " + e.get_context() + ")";
    if (const char *why = e.get_error_string()) {
        if (*why) message += std::string(" (") + why + ")";
    }
    return message;
}

cx_status report(cx_error **error_out, cx_status status, const Xapian::Error &e) noexcept {
    try {
        return report(error_out, status, e.get_type(), describe(e));
    } catch (...) {
        return report(error_out, status, "Xapian::Error", std::string());
    }
}

}  // namespace

cx_status cx_translate_exception(cx_error **error_out) noexcept {
    try {
        throw;
    } catch (const Xapian::DatabaseLockError &e) {
        return report(error_out, CX_STATUS_DATABASE_LOCKED, e);
    } catch (const Xapian::DatabaseModifiedError &e) {
        return report(error_out, CX_STATUS_DATABASE_MODIFIED, e);
    } catch (const Xapian::DatabaseNotFoundError &e) {
        return report(error_out, CX_STATUS_DATABASE_NOT_FOUND, e);
    } catch (const Xapian::DatabaseCorruptError &e) {
        return report(error_out, CX_STATUS_DATABASE_CORRUPT, e);
    } catch (const Xapian::DatabaseVersionError &e) {
        return report(error_out, CX_STATUS_DATABASE_VERSION, e);
    } catch (const Xapian::DatabaseError &e) {
        return report(error_out, CX_STATUS_DATABASE_ERROR, e);
    } catch (const Xapian::DocNotFoundError &e) {
        return report(error_out, CX_STATUS_DOCUMENT_NOT_FOUND, e);
    } catch (const Xapian::QueryParserError &e) {
        return report(error_out, CX_STATUS_QUERY_PARSER_ERROR, e);
    } catch (const Xapian::InvalidArgumentError &e) {
        return report(error_out, CX_STATUS_INVALID_ARGUMENT, e);
    } catch (const Xapian::InvalidOperationError &e) {
        return report(error_out, CX_STATUS_INVALID_OPERATION, e);
    } catch (const Xapian::Error &e) {
        return report(error_out, CX_STATUS_XAPIAN_EXCEPTION, e);
    } catch (const std::bad_alloc &e) {
        return report(error_out, CX_STATUS_OUT_OF_MEMORY, "std::bad_alloc", e.what());
    } catch (const std::exception &e) {
        return report(error_out, CX_STATUS_UNKNOWN_EXCEPTION, typeid(e).name(), e.what());
    } catch (...) {
        return report(error_out, CX_STATUS_UNKNOWN_EXCEPTION, "unknown", "a non-standard C++ exception");
    }
}

void require(bool condition, const char *message) {
    if (!condition) throw Xapian::InvalidArgumentError(message);
}

extern "C" {

const char *cx_status_to_string(cx_status status) {
    switch (status) {
        case CX_STATUS_SUCCESS: return "success";
        case CX_STATUS_DATABASE_LOCKED: return "database locked by another writer";
        case CX_STATUS_DATABASE_NOT_FOUND: return "database not found";
        case CX_STATUS_DOCUMENT_NOT_FOUND: return "document not found";
        case CX_STATUS_QUERY_PARSER_ERROR: return "query could not be parsed";
        case CX_STATUS_DATABASE_MODIFIED: return "database modified; reopen and retry";
        case CX_STATUS_DATABASE_CORRUPT: return "database corrupt";
        case CX_STATUS_DATABASE_VERSION: return "unsupported database version";
        case CX_STATUS_DATABASE_ERROR: return "database error";
        case CX_STATUS_INVALID_ARGUMENT: return "invalid argument";
        case CX_STATUS_INVALID_OPERATION: return "invalid operation";
        case CX_STATUS_OUT_OF_MEMORY: return "out of memory";
        case CX_STATUS_XAPIAN_EXCEPTION: return "Xapian error";
        case CX_STATUS_UNKNOWN_EXCEPTION: return "unknown C++ exception";
    }
    return "unknown status";
}

cx_status cx_error_status(const cx_error *error) noexcept {
    return error ? error->status : CX_STATUS_SUCCESS;
}

const char *cx_error_type(const cx_error *error) {
    return error ? error->type.c_str() : "";
}

const char *cx_error_message(const cx_error *error) {
    return error ? error->message.c_str() : "";
}

void cx_error_destroy(cx_error *error) noexcept {
    delete error;
}

void cx_string_free(char *string) noexcept {
    delete[] string;
}

}  // extern "C"
