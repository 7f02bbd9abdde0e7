// stopwords.cc - English function words ignored in queries (except in phrases, after +, or as the word being typed).
#include "shim.h"

#include <iterator>

const Xapian::Stopper &english_stopper() {
    static const char *const words[] = {
        "a",    "about", "an",   "and",  "are",   "as",   "at",    "be",   "by",   "for",  "from",
        "how",  "i",     "in",   "is",   "it",    "of",   "on",    "or",   "that", "the",  "this",
        "to",   "was",   "what", "when", "where", "which", "who",  "why",  "will", "with",
    };
    static const Xapian::SimpleStopper stopper(std::begin(words), std::end(words));
    return stopper;
}
