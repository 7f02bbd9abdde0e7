// native_indexer.cc - the engine's own limit: Engram's term generation in plain C++ over libxapian.
//
// Reads Engram JSON Lines (one memory per line: id, content, type, tags) and writes a glass
// database with exactly what Engram's shim writes for a memory (Sources/CXapian/document.cc):
// English stemmer, STEM_SOME, positions, title under prefix S with wdf 0 (no length), body unprefixed, boolean
// Q/XDOM/K/XTYPE/XNOCTX terms, values 0-3, per-document spelling, replace_document by the
// unique term, one transaction, one commit.  No store, no Swift: only the engine.
//
// Build: g++ -O2 -std=c++17 native_indexer.cc -o native_indexer -lxapian
// Usage: native_indexer CORPUS.jsonl DBDIR
#include <xapian.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// Appends the UTF-8 encoding of a code point.
void put_utf8(std::string &out, unsigned cp) {
    if (cp < 0x80) out += char(cp);
    else if (cp < 0x800) { out += char(0xC0 | (cp >> 6)); out += char(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += char(0xE0 | (cp >> 12)); out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
    else { out += char(0xF0 | (cp >> 18)); out += char(0x80 | ((cp >> 12) & 0x3F)); out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F)); }
}

/// Parses a JSON string starting at line[i] == '"'; leaves i after the closing quote.
std::string json_string(const std::string &line, size_t &i) {
    std::string out;
    ++i;
    while (i < line.size() && line[i] != '"') {
        char c = line[i++];
        if (c != '\\') { out += c; continue; }
        char e = line[i++];
        switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                unsigned cp = std::stoul(line.substr(i, 4), nullptr, 16); i += 4;
                if (cp >= 0xD800 && cp < 0xDC00 && line.compare(i, 2, "\\u") == 0) {
                    unsigned lo = std::stoul(line.substr(i + 2, 4), nullptr, 16); i += 6;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                put_utf8(out, cp);
                break;
            }
            default: out += e;
        }
    }
    ++i;
    return out;
}

struct Memory {
    std::string id, content, type;
    std::vector<std::string> tags;
};

/// Reads the flat objects debian-corpus.sh writes (string values and one string array).
Memory parse(const std::string &line) {
    Memory m;
    size_t i = 0;
    while (i < line.size()) {
        if (line[i] != '"') { ++i; continue; }
        std::string key = json_string(line, i);
        while (i < line.size() && (line[i] == ':' || line[i] == ' ')) ++i;
        if (line[i] == '"') {
            std::string value = json_string(line, i);
            if (key == "id") m.id = value;
            else if (key == "content") m.content = value;
            else if (key == "type") m.type = value;
        } else if (line[i] == '[') {
            ++i;
            while (i < line.size() && line[i] != ']') {
                if (line[i] == '"') { std::string v = json_string(line, i); if (key == "tags") m.tags.push_back(v); }
                else ++i;
            }
            ++i;
        }
        while (i < line.size() && line[i] != ',' && line[i] != '}') ++i;
    }
    return m;
}

std::string lower(const std::string &s) { return Xapian::Unicode::tolower(s); }

/// prefix + value, with ':' when value starts with a capital (omega convention, as the shim does).
std::string term(const std::string &prefix, const std::string &value) {
    std::string t = prefix;
    if (!value.empty() && ((value[0] >= 'A' && value[0] <= 'Z') || value[0] == ':')) t += ':';
    return t + value;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) { std::fprintf(stderr, "usage: %s CORPUS.jsonl DBDIR\n", argv[0]); return 2; }
    try {
        auto start = std::chrono::steady_clock::now();
        Xapian::WritableDatabase db(argv[2], Xapian::DB_CREATE_OR_OVERWRITE);
        Xapian::TermGenerator gen;
        gen.set_stemmer(Xapian::Stem("english"));
        gen.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
        const double created = 1.7e9;  // Engram stamps an import with one clock reading; any constant will do.
        const double never = 1e300;
        db.begin_transaction(false);
        std::ifstream in(argv[1]);
        std::string line;
        size_t n = 0;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            Memory m = parse(line);
            std::string title = m.content.substr(0, m.content.find('\n'));
            Xapian::Document doc;
            std::string data = "engram-doc 1\nkind=memory\nid=" + m.id + "\ntitle=" + title + "\ntype=" + m.type + "\n";
            for (auto &t : m.tags) data += "tag=" + t + "\n";
            data += "created=1700000000.0\n\n" + m.content;
            doc.set_data(data);
            gen.set_document(doc);
            gen.index_text(title, 0, "S");
            gen.index_text(m.content);  // the title is the body's first line: indexed once, as Engram does
            std::string unique = term("Q", "memory:" + m.id);
            doc.add_boolean_term(unique);
            doc.add_boolean_term("XDOMmemory");
            for (auto &t : m.tags) doc.add_boolean_term(term("K", lower(t)));
            doc.add_boolean_term(term("XTYPE", lower(m.type)));
            doc.add_boolean_term("XNOCTX");
            doc.add_value(0, Xapian::sortable_serialise(created));
            doc.add_value(1, "20231114");
            doc.add_value(2, Xapian::sortable_serialise(never));
            doc.add_value(3, "memory:" + m.id);
            db.replace_document(unique, doc);
            for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
                const std::string &w = *t;
                if (!w.empty() && !(w[0] >= 'A' && w[0] <= 'Z')) db.add_spelling(w, 1);
            }
            ++n;
        }
        db.set_metadata("engram.last_seq", std::to_string(n));
        db.commit_transaction();
        db.commit();
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("{\"docs\": %zu, \"seconds\": %.3f}\n", n, secs);
    } catch (const Xapian::Error &e) {
        std::fprintf(stderr, "native_indexer: %s\n", e.get_description().c_str());
        return 1;
    }
    return 0;
}
