// strings.cc - cx_strings, the shim's owned list of byte strings.
#include "shim.h"

std::string to_string(cx_bytes bytes) {
    return bytes.data ? std::string(bytes.data, bytes.length) : std::string();
}

cx_strings *make_strings(std::vector<std::string> &&strings) {
    return new cx_strings{std::move(strings)};
}

extern "C" {

size_t cx_strings_count(const cx_strings *strings) noexcept {
    return strings ? strings->items.size() : 0;
}

cx_bytes cx_strings_get(const cx_strings *strings, size_t index) noexcept {
    if (!strings || index >= strings->items.size()) return cx_bytes{nullptr, 0};
    const std::string &item = strings->items[index];
    return cx_bytes{item.data(), item.size()};
}

void cx_strings_destroy(cx_strings *strings) noexcept {
    delete strings;
}

}  // extern "C"
