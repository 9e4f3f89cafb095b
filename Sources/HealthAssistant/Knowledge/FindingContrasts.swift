/// Opposite ends of a scale a finding can be told on (size: a coin-sized burn against one "larger
/// than the palm"; depth: a small shallow cut against a deep gaping one). Sentence embeddings weigh
/// the shared head word ("burn", "cut") and not its measure, so a clause at one end met a library
/// phrase at the other ("the burn is about the size of a quarter" came within 0.6 of "burn larger
/// than the palm of the hand"). A clause that names only one end of a scale does not meet, by
/// meaning, a phrase that names only the other. Words from `contrasts` in rules/findings.yaml.
public struct FindingContrasts: Sendable {
    /// Each scale: its two ends, each a list of lower-case words or phrases.
    let scales: [(name: String, low: [String], high: [String])]

    init(scales: [(name: String, low: [String], high: [String])]) { self.scales = scales }

    /// Per scale, which end the text names: bit 2·i for the low end, 2·i+1 for the high end.
    func ends(of text: String) -> UInt64 {
        let padded = " " + TextMatch.words(text).joined(separator: " ") + " "
        var bits: UInt64 = 0
        for (i, scale) in scales.enumerated() where i < 32 {
            if scale.low.contains(where: { padded.contains(" " + $0 + " ") }) { bits |= 1 << (2 * i) }
            if scale.high.contains(where: { padded.contains(" " + $0 + " ") }) { bits |= 1 << (2 * i + 1) }
        }
        return bits
    }

    /// Whether the two texts stand at opposite ends of some scale, each naming only its own end.
    static func opposed(_ a: UInt64, _ b: UInt64) -> Bool {
        let lowBits: UInt64 = 0x5555_5555_5555_5555
        let aOnlyLow = a & lowBits & ~(a >> 1), aOnlyHigh = (a >> 1) & lowBits & ~a
        let bOnlyLow = b & lowBits & ~(b >> 1), bOnlyHigh = (b >> 1) & lowBits & ~b
        return (aOnlyLow & bOnlyHigh) != 0 || (aOnlyHigh & bOnlyLow) != 0
    }
}
