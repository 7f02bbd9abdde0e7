// shim_search.cc - Engram's search through the shim alone, in a warm loop: what a query costs the daemon in
// libxapian and the shim, without D-Bus, threads or Swift. docs/performance.md quotes it against python3-xapian
// doing the same matching (pyxapian_search.py).
//
// Run (after `make bench` left its 63,666-memory index in bench-out/work): scripts/probe/shim-search.sh
// Arguments: INDEX QUERIES.txt DECAY_WEIGHT SNIPPET_COUNT PASSES; prints the best pass's mean per query.
#include "cxapian.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    if (argc != 6) { std::fprintf(stderr, "usage: %s INDEX QUERIES.txt DECAY SNIPPETS PASSES\n", argv[0]); return 2; }
    cx_database *db = nullptr;
    cx_error *err = nullptr;
    if (cx_database_open(argv[1], &db, &err) != CX_STATUS_SUCCESS) { std::fprintf(stderr, "cannot open %s\n", argv[1]); return 1; }
    std::vector<std::string> queries;
    std::ifstream in(argv[2]);
    for (std::string line; std::getline(in, line);) if (!line.empty()) queries.push_back(line);
    const double decay = std::atof(argv[3]);
    const unsigned snippets = unsigned(std::atoi(argv[4]));
    const int passes = std::atoi(argv[5]);
    const char *kinds[] = {"curriculum", "memory", "topic"};
    cx_bytes kind_bytes[3];
    for (int i = 0; i < 3; ++i) kind_bytes[i] = {kinds[i], std::strlen(kinds[i])};
    double best = 1e9;
    size_t hits = 0;
    for (int p = 0; p < passes; ++p) {
        auto start = std::chrono::steady_clock::now();
        for (const auto &q : queries) {
            // As the daemon asks for GNOME Shell: partial last word, twenty ids, the five shown whole.
            cx_search_options o{};
            o.query = {q.data(), q.size()};
            o.kinds = kind_bytes;
            o.kind_count = 3;
            o.limit = 20;
            o.flags = CX_SEARCH_PARTIAL | CX_SEARCH_SPELLING | CX_SEARCH_ESTIMATE_TOTAL;
            o.now = double(std::time(nullptr));
            o.decay_weight = decay;
            o.snippet_length = snippets ? 120 : 0;
            o.snippet_count = snippets;
            o.detail_count = 5;
            cx_results *r = nullptr;
            cx_database_reopen(db, &err);
            if (cx_database_search(db, &o, &r, &err) != CX_STATUS_SUCCESS) { std::fprintf(stderr, "search failed: %s\n", q.c_str()); return 1; }
            hits += cx_results_count(r);
            cx_results_destroy(r);
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / queries.size();
        if (ms < best) best = ms;
    }
    std::printf("shim search: decay %.1f, snippets %u: %.3f ms per query (best of %d passes over %zu queries; %zu hits)\n",
                decay, snippets, best, passes, queries.size(), hits);
    return 0;
}
