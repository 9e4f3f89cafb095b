import Foundation

/// A narrow reading of denial for words that must never be missed (suicide, self-harm): the words
/// are denied only when the text right before them, in the same sentence part, ends with a denial
/// ("no thoughts of", "I'm not", "didn't") and nothing after them takes it back ("yet", "but").
/// The parser's clause negation is too broad here — "no one would care if I killed myself" holds
/// the cue "no" — so this reads each occurrence on its own. From `explicit_denial` in
/// rules/negation.yaml.
struct ExplicitDenial: Sendable {
    /// Must match the end of the text before the words (the pattern ends in `$`).
    let before: CompiledPattern
    /// Must not match at the start of the text after them (compiled anchored).
    let notAfter: CompiledPattern

    /// The sentence part holding the first occurrence of `pattern` in `text` that is not denied.
    func firstUndenied(_ pattern: CompiledPattern, in text: String) -> String? {
        for range in pattern.ranges(in: text) {
            let part = Self.part(of: text, around: range)
            let before = String(text[part.lowerBound..<range.lowerBound]), after = String(text[range.upperBound..<part.upperBound])
            if !self.before.matches(before) || notAfter.matches(after) {
                return text[part].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The stretch between the nearest sentence or clause breaks around `range`: a denial in one
    /// sentence says nothing about the next.
    static func part(of text: String, around range: Range<String.Index>) -> Range<String.Index> {
        let breaks: Set<Character> = [".", "!", "?", ";", ",", "\n"]
        var start = range.lowerBound
        while start > text.startIndex, !breaks.contains(text[text.index(before: start)]) { start = text.index(before: start) }
        var end = range.upperBound
        while end < text.endIndex, !breaks.contains(text[end]) { end = text.index(after: end) }
        return start..<end
    }
}
