// decay_source.cc - ExpiryDecaySource.
#include "decay_source.h"

#include <algorithm>
#include <cmath>

namespace {

/// Appends a length-prefixed field to a serialisation.
void append_field(std::string &out, const std::string &field) {
    out += static_cast<char>(field.size());
    out += field;
}

/// Reads a length-prefixed field, advancing pos; throws on malformed input.
std::string read_field(const std::string &in, size_t &pos) {
    if (pos >= in.size()) throw Xapian::SerialisationError("ExpiryDecaySource: truncated");
    size_t length = static_cast<unsigned char>(in[pos++]);
    if (in.size() - pos < length) throw Xapian::SerialisationError("ExpiryDecaySource: truncated");
    std::string field = in.substr(pos, length);
    pos += length;
    return field;
}

}  // namespace

ExpiryDecaySource::ExpiryDecaySource(Xapian::valueno slot, double now, double horizon)
    : Xapian::ValuePostingSource(slot), now_(now), horizon_(horizon > 0 ? horizon : 1) {}

double ExpiryDecaySource::weight_for(double expiry) const {
    double fraction = (expiry - now_) / horizon_;
    if (std::isnan(fraction)) return 0;
    return std::clamp(fraction, 0.0, 1.0);
}

double ExpiryDecaySource::get_weight() const {
    return weight_for(Xapian::sortable_unserialise(get_value()));
}

ExpiryDecaySource *ExpiryDecaySource::clone() const {
    return new ExpiryDecaySource(get_slot(), now_, horizon_);
}

std::string ExpiryDecaySource::name() const {
    return "engram.ExpiryDecaySource";
}

std::string ExpiryDecaySource::serialise() const {
    std::string out;
    append_field(out, Xapian::sortable_serialise(get_slot()));
    append_field(out, Xapian::sortable_serialise(now_));
    append_field(out, Xapian::sortable_serialise(horizon_));
    return out;
}

ExpiryDecaySource *ExpiryDecaySource::unserialise(const std::string &serialised) const {
    size_t pos = 0;
    double slot = Xapian::sortable_unserialise(read_field(serialised, pos));
    double now = Xapian::sortable_unserialise(read_field(serialised, pos));
    double horizon = Xapian::sortable_unserialise(read_field(serialised, pos));
    if (pos != serialised.size() || slot < 0) throw Xapian::SerialisationError("ExpiryDecaySource: junk at end");
    return new ExpiryDecaySource(static_cast<Xapian::valueno>(slot), now, horizon);
}

void ExpiryDecaySource::init(const Xapian::Database &db) {
    Xapian::ValuePostingSource::init(db);
    std::string upper = db.get_value_upper_bound(get_slot());
    set_maxweight(upper.empty() ? 0.0 : weight_for(Xapian::sortable_unserialise(upper)));
}

std::string ExpiryDecaySource::get_description() const {
    return "ExpiryDecaySource(slot " + std::to_string(get_slot()) + ", now " + std::to_string(now_) +
           ", horizon " + std::to_string(horizon_) + ")";
}
