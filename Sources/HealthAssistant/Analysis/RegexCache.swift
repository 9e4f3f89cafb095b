import Foundation

/// The parser's own grammar patterns (ages, durations, vital-sign readings), compiled once per
/// pattern. Clinical patterns live in `rules/` and are compiled by the knowledge loader
/// (`CompiledPattern`). NSRegularExpression is immutable and safe to use from several threads
/// once built; the dictionary is filled under a lock.
///
/// Every pattern matches only from the start of a word (see `CompiledPattern`).
final class CompiledPatterns: @unchecked Sendable {
    static let shared = CompiledPatterns()
    private let lock = NSLock()
    private var cache: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String) -> NSRegularExpression {
        lock.lock(); defer { lock.unlock() }
        if let r = cache[pattern] { return r }
        // Grammar patterns are constants of this module, each exercised by the parser tests; the
        // group keeps the pattern's own capture numbers.
        let r = try! NSRegularExpression(pattern: CompiledPattern.wordStart(pattern))
        cache[pattern] = r
        return r
    }
}

extension String {
    /// The first match of a regular expression, compiled once per pattern (compiling an ICU regex
    /// costs more than running it, and these patterns run on every question).
    func regexRange(_ pattern: String) -> Range<String.Index>? {
        let regex = CompiledPatterns.shared.regex(pattern)
        guard let m = regex.firstMatch(in: self, range: NSRange(startIndex..., in: self)) else { return nil }
        return Range(m.range, in: self)
    }

    /// The capture groups of the first match ("" for a group that did not take part), or nil.
    func regexFirstCaptures(_ pattern: String) -> [String]? {
        CompiledPatterns.shared.regex(pattern).firstMatch(in: self, range: NSRange(startIndex..., in: self)).map(captures)
    }

    /// This text with every match replaced by `template` (the regex compiled once per pattern).
    func regexReplacing(_ pattern: String, with template: String) -> String {
        CompiledPatterns.shared.regex(pattern).stringByReplacingMatches(in: self, range: NSRange(startIndex..., in: self), withTemplate: template)
    }

    /// The capture groups of every match, in order.
    func regexAllCaptures(_ pattern: String) -> [[String]] {
        CompiledPatterns.shared.regex(pattern).matches(in: self, range: NSRange(startIndex..., in: self)).map(captures)
    }

    private func captures(_ m: NSTextCheckingResult) -> [String] {
        (1..<m.numberOfRanges).map { i in Range(m.range(at: i), in: self).map { String(self[$0]) } ?? "" }
    }
}
