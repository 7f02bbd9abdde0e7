extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped to this type's range (0 for NaN), where `Self(value)` would trap
    /// on a value out of range: for numbers that come from outside (a peer's totals, a corrupt row).
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            self = .max
        } else if value <= Double(Self.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}
