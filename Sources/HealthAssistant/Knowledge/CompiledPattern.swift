import Foundation

/// One pattern of the clinical knowledge (`rules/`).
///
/// Every pattern matches only from the start of a word: rules are written as word stems ("dizz",
/// "confus"), and a stem found inside another word is a false alarm — "rta" (road traffic
/// accident) inside "uncomfortable", "bee" inside "been", "fit" inside "benefit" once made
/// ordinary questions emergencies. A pattern that must stop at a word's end says `\b`.
///
/// Patterns are compiled when the knowledge is validated; files that were validated before (see
/// `ClinicalKnowledge.load`) compile each pattern on its first use instead, which keeps a cold
/// `health ask` from compiling patterns it never reaches. NSRegularExpression is immutable once
/// built and safe to share between threads.
public struct CompiledPattern: Sendable, CustomStringConvertible {
    /// The pattern as written in the data (alternatives joined by `|`, lexicons expanded).
    public let source: String
    let box: RegexBox

    public var description: String { source }

    /// `\b(?:pattern)`: the group keeps the pattern's own capture numbers.
    static func wordStart(_ pattern: String) -> String { #"\b(?:"# + pattern + ")" }

    static func wrapped(_ pattern: String, anchored: Bool) -> String { anchored ? "^(?:" + pattern + ")" : wordStart(pattern) }

    /// Compiles `pattern` now; `anchored` matches only at the start of the text.
    init(_ pattern: String, anchored: Bool = false) throws {
        source = pattern
        box = RegexBox(try NSRegularExpression(pattern: Self.wrapped(pattern, anchored: anchored)))
    }

    /// Compiles on first use; for patterns already validated.
    init(lazy pattern: String, anchored: Bool) {
        source = pattern
        box = RegexBox(pattern: Self.wrapped(pattern, anchored: anchored))
    }

    var regex: NSRegularExpression { box.regex }

    func matches(_ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Every match's range, in order.
    func ranges(in text: String) -> [Range<String.Index>] {
        regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text) }
    }
}

/// A compiled regular expression, or the pattern to compile on first use (under a lock).
final class RegexBox: @unchecked Sendable {
    // `compiled` is written once, under `lock`.
    private let lock = NSLock()
    private var compiled: NSRegularExpression?
    private let pattern: String

    init(_ regex: NSRegularExpression) { compiled = regex; pattern = regex.pattern }
    init(pattern: String) { self.pattern = pattern }

    var regex: NSRegularExpression {
        lock.withLock {
            if let compiled { return compiled }
            // Validated when the files were last changed (the stamp matched); a failure here means
            // the files changed under a running process, which the stamp check rules out.
            let r = (try? NSRegularExpression(pattern: pattern)) ?? NSRegularExpression.never
            compiled = r
            return r
        }
    }
}

extension NSRegularExpression {
    /// Matches nothing: the fallback for a lazily compiled pattern that no longer compiles.
    static let never = try! NSRegularExpression(pattern: "(?!)")
}
