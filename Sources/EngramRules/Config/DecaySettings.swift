/// `[decay]`: the forgetting curve.
///
///     [decay]
///     half_life_days = { note = 30, idea = 45, task = 14, quote = 120, learning = 60 }
///     reinforcement_factor = 1.8
extension DecayModel: ConfigSection {
    public static let sectionName = "decay"

    /// The standard curve.
    public init() { self = .standard }

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        switch key {
        case "half_life_days":
            guard let days = value.table else { throw Self.must(key, "be a table of days per type, such as { note = 30 }") }
            for (name, value) in days.sorted(by: { $0.key < $1.key }) {
                guard let type = MemoryType(rawValue: name) else {
                    throw ConfigProblem("[decay.half_life_days] has unknown type '\(name)'; use one of \(MemoryType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                guard let d = value.number, d > 0, d.isFinite else { throw ConfigProblem("half_life_days.\(name) must be a positive number of days") }
                halfLifeDays[type] = d
            }
        case "reinforcement_factor":
            guard let f = value.number else { return }
            guard f >= 1, f.isFinite else { throw Self.must(key, "be ≥ 1") }
            reinforcementFactor = f
        default:
            return
        }
    }
}
