import Foundation

/// BERT's "basic" pre-tokenisation for uncased models: clean control characters, normalise
/// whitespace, isolate CJK ideographs, lowercase, strip accents (NFD minus combining marks) and
/// split off punctuation. It mirrors the `BertNormalizer` + `BertPreTokenizer` pair that
/// sentence-transformers runs, so token ids match exactly.
public struct BasicTokenizer: Sendable {
    public let lowercase: Bool

    public init(lowercase: Bool = true) { self.lowercase = lowercase }

    public func tokenize(_ text: String) -> [String] {
        // 1. Clean + CJK spacing, on unicode scalars (not grapheme clusters: BERT works per code point).
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v == 0 || v == 0xFFFD || Self.isControl(scalar) { continue }
            if Self.isWhitespace(scalar) {
                cleaned.append(" ")
            } else if Self.isCJK(v) {
                cleaned.append(" "); cleaned.append(scalar); cleaned.append(" ")
            } else {
                cleaned.append(scalar)
            }
        }
        var normalized = String(cleaned)
        if lowercase {
            // Accents are stripped before lowercasing, as the Rust normaliser does.
            normalized = Self.stripAccents(normalized).lowercased()
        }
        // 2. Split on whitespace, then split punctuation into single-character tokens.
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { tokens.append(String(current)); current = String.UnicodeScalarView() }
        }
        for scalar in normalized.unicodeScalars {
            if Self.isWhitespace(scalar) {
                flush()
            } else if Self.isPunctuation(scalar) {
                flush()
                tokens.append(String(scalar))
            } else {
                current.append(scalar)
            }
        }
        flush()
        return tokens
    }

    static func stripAccents(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            out.append(scalar)
        }
        return String(out)
    }

    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case " ", "\t", "\n", "\r": return true
        default: return s.properties.generalCategory == .spaceSeparator
        }
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "\t", "\n", "\r": return false
        default:
            switch s.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned: return true
            default: return false
            }
        }
    }

    static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        // BERT treats every non-alphanumeric ASCII symbol as punctuation, e.g. "$", "^", "`".
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) {
            return true
        }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    static func isCJK(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x2A700...0x2B73F).contains(v) || (0x2B740...0x2B81F).contains(v) || (0x2B820...0x2CEAF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x2F800...0x2FA1F).contains(v)
    }
}
