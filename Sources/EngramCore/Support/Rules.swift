/// The rules EngramCore shares with the lean feed binary (memory types, the forgetting curve, stats, the streak,
/// paths, timestamps) live in the Foundation-free `EngramRules`; whoever imports EngramCore sees them too.
@_exported import EngramRules
