// decay_source.h - a posting source weighting documents by the remaining life of their expiry.
#ifndef CXAPIAN_DECAY_SOURCE_H
#define CXAPIAN_DECAY_SOURCE_H

#include <xapian.h>

#include <memory>
#include <string>
#include <vector>

/// Weights each document clamp((expiry - now) / horizon, 0, 1): 1 for a fresh or
/// never-expiring item, falling to 0 as it approaches its expiry.
class ExpiryDecaySource : public Xapian::ValuePostingSource {
  public:
    /// Reads expiry (sortable_serialise'd Unix seconds) from slot; horizon in seconds.
    ExpiryDecaySource(Xapian::valueno slot, double now, double horizon);

    double get_weight() const override;
    // Xapian 1.4 hands a posting source the matcher's minimum weight without dividing it by the
    // OP_SCALE_WEIGHT factor, and ValuePostingSource stops at once when that exceeds its maximum weight.
    // With a decay weight above 1 that dropped the boost of every later document, so the minimum is ignored.
    void next(double min_wt) override;
    void skip_to(Xapian::docid did, double min_wt) override;
    bool check(Xapian::docid did, double min_wt) override;
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

/// Every document's expiry at one revision, indexed by docid (NaN where no document is), so a search can
/// weight and filter its matches from memory instead of decoding the expiry value of each match.
struct ExpiryTable {
    std::vector<double> expiry;
    Xapian::docid last = 0;
    /// How many documents have an expiry.
    Xapian::doccount count = 0;

    /// Reads the expiry slot of every document of db.
    static std::shared_ptr<const ExpiryTable> load(const Xapian::Database &db, Xapian::valueno slot);
    /// How many documents expire at or after now (binary search over the sorted expiries).
    Xapian::doccount live_count(double now) const;
    /// The latest expiry (only when count > 0).
    double latest() const { return sorted_.back(); }

  private:
    std::vector<double> sorted_;
};

/// The same weight as ExpiryDecaySource, read from an ExpiryTable; with filter_expired it also matches
/// only documents whose expiry is at or after now (the search's expiry filter and decay in one pass).
/// Not serialisable: it is only used by local searches.
class TableDecaySource : public Xapian::PostingSource {
  public:
    TableDecaySource(std::shared_ptr<const ExpiryTable> table, double now, double horizon, bool filter_expired);

    Xapian::doccount get_termfreq_min() const override { return termfreq_; }
    Xapian::doccount get_termfreq_est() const override { return termfreq_; }
    Xapian::doccount get_termfreq_max() const override { return termfreq_; }
    void init(const Xapian::Database &db) override;
    void next(double min_wt) override;
    void skip_to(Xapian::docid did, double min_wt) override;
    bool check(Xapian::docid did, double min_wt) override;
    bool at_end() const override { return did_ > table_->last; }
    Xapian::docid get_docid() const override { return did_; }
    double get_weight() const override;
    TableDecaySource *clone() const override;
    std::string name() const override { return std::string(); }
    std::string get_description() const override;

  private:
    bool matches(Xapian::docid did) const;
    void advance(Xapian::docid did);

    std::shared_ptr<const ExpiryTable> table_;
    double now_;
    double horizon_;
    bool filter_expired_;
    Xapian::doccount termfreq_;
    Xapian::docid did_ = 0;
};

#endif
