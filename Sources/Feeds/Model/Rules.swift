/// Feeds compute with the rules they share with the core (`EngramRules`: memory types, the forgetting curve, stats,
/// the streak, paths, timestamps, markup); whoever imports Feeds sees them too.
@_exported import EngramRules
