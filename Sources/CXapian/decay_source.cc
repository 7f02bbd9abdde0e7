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

void ExpiryDecaySource::next(double) {
    Xapian::ValuePostingSource::next(0);
}

void ExpiryDecaySource::skip_to(Xapian::docid did, double) {
    Xapian::ValuePostingSource::skip_to(did, 0);
}

bool ExpiryDecaySource::check(Xapian::docid did, double) {
    return Xapian::ValuePostingSource::check(did, 0);
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

std::shared_ptr<const ExpiryTable> ExpiryTable::load(const Xapian::Database &db, Xapian::valueno slot) {
    auto table = std::make_shared<ExpiryTable>();
    table->last = db.get_lastdocid();
    table->expiry.assign(size_t(table->last) + 1, std::nan(""));
    table->sorted_.reserve(db.get_doccount());
    for (auto v = db.valuestream_begin(slot); v != db.valuestream_end(slot); ++v) {
        Xapian::docid did = v.get_docid();
        if (did > table->last) continue;  // cannot happen at one revision; never index past the end
        double expiry = Xapian::sortable_unserialise(*v);
        table->expiry[did] = expiry;
        table->sorted_.push_back(expiry);
    }
    std::sort(table->sorted_.begin(), table->sorted_.end());
    table->count = Xapian::doccount(table->sorted_.size());
    return table;
}

Xapian::doccount ExpiryTable::live_count(double now) const {
    return Xapian::doccount(sorted_.end() - std::lower_bound(sorted_.begin(), sorted_.end(), now));
}

TableDecaySource::TableDecaySource(std::shared_ptr<const ExpiryTable> table, double now, double horizon, bool filter_expired)
    : table_(std::move(table)), now_(now), horizon_(horizon > 0 ? horizon : 1), filter_expired_(filter_expired),
      termfreq_(filter_expired_ ? table_->live_count(now_) : table_->count) {}

void TableDecaySource::init(const Xapian::Database &) {
    did_ = 0;
    // The true bound, the weight of the latest expiry, as ExpiryDecaySource takes it from the slot's upper bound.
    set_maxweight(table_->count == 0 ? 0.0 : std::clamp((table_->latest() - now_) / horizon_, 0.0, 1.0));
}

bool TableDecaySource::matches(Xapian::docid did) const {
    double expiry = table_->expiry[did];
    return !std::isnan(expiry) && (!filter_expired_ || expiry >= now_);
}

void TableDecaySource::advance(Xapian::docid did) {
    while (did <= table_->last && !matches(did)) ++did;
    did_ = did;
}

void TableDecaySource::next(double) {
    advance(did_ + 1);
}

void TableDecaySource::skip_to(Xapian::docid did, double) {
    if (did > did_) advance(did);
}

bool TableDecaySource::check(Xapian::docid did, double) {
    if (did > did_) advance(did);
    return true;
}

double TableDecaySource::get_weight() const {
    double fraction = (table_->expiry[did_] - now_) / horizon_;
    if (std::isnan(fraction)) return 0;
    return std::clamp(fraction, 0.0, 1.0);
}

TableDecaySource *TableDecaySource::clone() const {
    return new TableDecaySource(table_, now_, horizon_, filter_expired_);
}

std::string TableDecaySource::get_description() const {
    return "TableDecaySource(now " + std::to_string(now_) + ", horizon " + std::to_string(horizon_) +
           (filter_expired_ ? ", unexpired only)" : ")");
}
