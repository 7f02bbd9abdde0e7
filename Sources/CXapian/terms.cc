// terms.cc - how fields become Xapian terms (shared by indexing and query parsing).
#include "shim.h"

#include <cstdio>

namespace {

/// Glass rejects terms longer than this many bytes.
constexpr size_t max_term_length = 245;

/// FNV-1a, 64 bit: a stable hash to keep shortened terms distinct.
uint64_t fnv1a(const std::string &text) {
    uint64_t hash = 14695981039346656037ull;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

/// Moves a cut position back so it does not split a UTF-8 sequence.
size_t utf8_boundary(const std::string &text, size_t cut) {
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return cut;
}

}  // namespace

std::string make_term(const std::string &prefix, const std::string &value) {
    std::string term = prefix;
    if (!value.empty() && ((value[0] >= 'A' && value[0] <= 'Z') || value[0] == ':')) term += ':';
    term += value;
    if (term.size() <= max_term_length) return term;
    char hash[18];
    std::snprintf(hash, sizeof hash, "#%016llx", static_cast<unsigned long long>(fnv1a(value)));
    size_t keep = utf8_boundary(term, max_term_length - (sizeof hash - 1));
    return term.substr(0, keep) + hash;
}

std::string lowercase(const std::string &text) {
    return Xapian::Unicode::tolower(text);
}

std::string unique_term(const std::string &kind, const std::string &id) {
    return make_term(prefix::unique, kind + ":" + id);
}

bool is_plain_word(const std::string &term) {
    return !term.empty() && !(term[0] >= 'A' && term[0] <= 'Z');
}
