// decay_source.h - a posting source weighting documents by the remaining life of their expiry.
#ifndef CXAPIAN_DECAY_SOURCE_H
#define CXAPIAN_DECAY_SOURCE_H

#include <xapian.h>

#include <string>

/// Weights each document clamp((expiry - now) / horizon, 0, 1): 1 for a fresh or
/// never-expiring item, falling to 0 as it approaches its expiry.
class ExpiryDecaySource : public Xapian::ValuePostingSource {
  public:
    /// Reads expiry (sortable_serialise'd Unix seconds) from slot; horizon in seconds.
    ExpiryDecaySource(Xapian::valueno slot, double now, double horizon);

    double get_weight() const override;
    ExpiryDecaySource *clone() const override;
    std::string name() const override;
    std::string serialise() const override;
    ExpiryDecaySource *unserialise(const std::string &serialised) const override;
    void init(const Xapian::Database &db) override;
    std::string get_description() const override;

    /// The weight of a document whose expiry is the given Unix time.
    double weight_for(double expiry) const;

  private:
    double now_;
    double horizon_;
};

#endif
