import Linear

/// Inputs for fuzzing the parser and the rule engine, reproducible from a seed: random bytes-as-
/// text, mutations of the rules' own case sentences, and sentences built from a small grammar of
/// lay health phrases, negations, numbers and punctuation (`health bench fuzz`, and a short run in
/// the tests). Lengths go up to the question limit, where slow patterns would show.
public struct InputFuzzer: Sendable {
    var rng: SplitMix64
    let seeds: [String]
    let maxLength: Int

    public init(seed: UInt64, sentences: [String], maxLength: Int = 4000) {
        rng = SplitMix64(seed: seed)
        seeds = sentences.isEmpty ? ["fever and a stiff neck"] : sentences
        self.maxLength = maxLength
    }

    static let fragments = ["chest pain", "no", "not", "fever", "and", "or", "but", "since yesterday", "for 3 days", "my baby",
                            "my 6 week old", "I'm 72", "pregnant", "can't breathe", "not breathing", "38.5", "temp 39.4", "SpO2 91%",
                            "BP 200/120", "HR 150", "peak flow 40% of best", "vomiting", "blood", "headache", "worst", "sudden", "a",
                            "the", "doesn't fade", "on warfarin", "diabetic", "stiff neck", "rash", "hay fever", "suicidal", "kill myself",
                            "took 20 pills", "(", ")", ",", ".", ";", "!", "?", "'", "\"", "/", "-", "100%", "°C", "°F", "…", "😷", "ñ", "中文"]

    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz  ,.;:!?()'\"-/%0123456789°éñü中😷\n\t")

    /// The next input: a random mix of the three kinds.
    public mutating func next() -> String {
        switch rng.next() % 4 {
        case 0: return randomText()
        case 1: return mutated()
        default: return grammar()
        }
    }

    mutating func length(short: Int) -> Int {
        // Mostly short, sometimes up to the limit.
        rng.next() % 8 == 0 ? Int(rng.next() % UInt64(maxLength)) + 1 : Int(rng.next() % UInt64(short)) + 1
    }

    mutating func randomText() -> String {
        let n = length(short: 200)
        if rng.next() % 4 == 0 {
            // A short unit repeated: the shape that once took seconds ("a, a, a, …").
            let unit = String((0..<Int(rng.next() % 4 + 1)).map { _ in Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))] })
            return String(String(repeating: unit, count: n / max(1, unit.count) + 1).prefix(n))
        }
        return String((0..<n).map { _ in Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))] })
    }

    mutating func mutated() -> String {
        var chars = Array(seeds[Int(rng.next() % UInt64(seeds.count))])
        for _ in 0..<Int(rng.next() % 8) {
            guard !chars.isEmpty else { break }
            let i = Int(rng.next() % UInt64(chars.count))
            switch rng.next() % 4 {
            case 0: chars.remove(at: i)
            case 1: chars.insert(Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))], at: i)
            case 2: chars[i] = Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
            default: chars.insert(contentsOf: Array(" " + Self.fragments[Int(rng.next() % UInt64(Self.fragments.count))] + " "), at: i)
            }
        }
        let text = String(chars)
        let copies = rng.next() % 10 == 0 ? Int(rng.next() % 40) + 2 : 1
        return String(Array(repeating: text, count: copies).joined(separator: ", ").prefix(maxLength))
    }

    mutating func grammar() -> String {
        let n = length(short: 40)
        var words: [String] = []
        var total = 0
        while words.count < n, total < maxLength {
            let w = Self.fragments[Int(rng.next() % UInt64(Self.fragments.count))]
            words.append(w)
            total += w.count + 1
        }
        return String(words.joined(separator: " ").prefix(maxLength))
    }
}
