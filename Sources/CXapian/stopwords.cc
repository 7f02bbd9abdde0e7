// stopwords.cc - English function words ignored in queries (except in phrases, after +, or as the word being typed).
#include "shim.h"

#include <iterator>

const Xapian::Stopper &english_stopper() {
    static const char *const words[] = {
        "a",    "about", "am",    "an",    "and",   "are",   "as",    "at",   "be",    "been", "by",
        "can",  "could", "did",   "do",    "does",  "for",   "from",  "had",  "has",   "have", "how",
        "i",    "i'm",   "in",    "is",    "it",    "its",   "me",    "my",   "of",    "on",   "or",
        "our",  "should", "so",   "that",  "the",   "their", "them",  "there", "these", "they", "this",
        "those", "to",   "us",    "was",   "we",    "were",  "what",  "when", "where", "which", "who",
        "why",  "will",  "with",  "would", "you",   "your",
    };
    static const Xapian::SimpleStopper stopper(std::begin(words), std::end(words));
    return stopper;
}
