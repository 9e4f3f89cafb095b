import Foundation

/// `health corpus check`'s guard against templated text (corpus/SCHEMA.md): no run of 12 words may
/// appear in two files. Each file is written fresh; a shared 12-word run means a passage was copied
/// or filled in from a template, and a library of copies retrieves as one blur.
///
/// Only prose is compared — the Markdown body and the red-flag wordings. Names, lay wordings, risk
/// factors, aliases and sources are short phrases that may rightly recur from file to file.
public struct RepeatedTextFinder: Sendable {
    /// One file's prose: separate segments (sections, flags), so a window never spans two of them.
    public struct File: Sendable {
        public var path: String
        public var segments: [String]
        public init(path: String, segments: [String]) { self.path = path; self.segments = segments }
    }

    /// Two files sharing a run of at least `window` words; `words` is the whole shared run (the first
    /// one found for this pair), so whoever rewrites it sees all of it.
    public struct Repeat: Sendable, Equatable, CustomStringConvertible {
        public var first: String
        public var second: String
        public var words: [String]
        public var description: String { "\(first) and \(second) share \(words.count) words: “\(words.joined(separator: " "))”" }
    }

    public var window: Int
    /// Standard safety wordings every file may repeat word for word (corpus/standard-phrases.txt):
    /// the emergency numbers, the crisis lines. A reader must meet the same instruction in the same
    /// words wherever they land, so a window inside one of these is not a copy.
    public var standard: [[String]]

    public init(window: Int = 12, standard: [String] = []) {
        self.window = max(1, window)
        self.standard = standard.map(Self.words).filter { !$0.isEmpty }
    }

    /// Which words of a segment belong to a standard wording.
    func standardMask(_ words: [String]) -> [Bool] {
        var mask = [Bool](repeating: false, count: words.count)
        for phrase in standard where phrase.count <= words.count {
            for start in 0...(words.count - phrase.count) where words[start] == phrase[0] && words[start..<(start + phrase.count)].elementsEqual(phrase) {
                for i in start..<(start + phrase.count) { mask[i] = true }
            }
        }
        return mask
    }

    /// What counts as prose in a corpus file: each non-empty section's text (headings are the same
    /// in every file and are left out) and each red flag's wording (schema v2 `flag:`, or a v1 string).
    public static func prose(of document: MarkdownDocument) -> [String] {
        var segments = document.sections.map(\.text)
        for item in document.frontMatter["red_flags"] as? [Any] ?? [] {
            if let text = item as? String { segments.append(text) }
            if let flag = item as? [String: Any], let text = flag["flag"] as? String { segments.append(text) }
        }
        return segments
    }

    /// Lowercased words: runs of letters, digits and apostrophes (typographic ones read as '), with
    /// URLs dropped and apostrophes trimmed at the edges so a quotation mark never makes a new word.
    public static func words(_ text: String) -> [String] { tokens(text).words }

    /// The words of a text and the hash of each. Unicode scalars rather than Characters, and a regular
    /// expression only when the text holds a URL: grapheme breaking and a regex per segment made a
    /// whole-corpus pass several times slower.
    static func tokens(_ text: String) -> (words: [String], hashes: [UInt64]) {
        let source = text.contains("http") ? text.replacingOccurrences(of: "https?://[^\\s)\\]]+", with: " ", options: .regularExpression) : text
        var words: [String] = [], hashes: [UInt64] = []
        var word = String.UnicodeScalarView()
        func flush() {
            while word.first == "'" { word.removeFirst() }
            while word.last == "'" { word.removeLast() }
            if !word.isEmpty {
                let w = String(word)
                words.append(w)
                hashes.append(hash(w))
            }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in source.lowercased().unicodeScalars {
            let inWord: Bool
            switch scalar {
            case "a"..."z", "0"..."9", "'": inWord = true
            case "\u{2019}": word.append("'"); continue
            default: inWord = !scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                                                   || scalar.properties.generalCategory == .nonspacingMark)
            }
            if inWord { word.append(scalar) } else if !word.isEmpty { flush() }
        }
        flush()
        return (words, hashes)
    }

    /// Every pair of files that share a `window`-word run, each pair once, in file order. Repeats
    /// within one file are allowed (a file may restate its own point).
    public func repeats(in files: [File]) -> [Repeat] {
        // Windows are hashed (64-bit, from per-word hashes) so the whole corpus is one pass and one
        // dictionary; a hash hit is confirmed word by word, so a collision can never report a repeat.
        // Places sharing a hash form a chain through `next` (most windows occur once, and an array
        // per window would be an allocation per window).
        struct Place { var file: Int32; var segment: Int32; var start: Int32; var next: Int32 }
        let tokens = files.map { $0.segments.map(Self.tokens) }
        var places: [Place] = []
        var head: [UInt64: Int32] = [:]
        let total = tokens.joined().reduce(0) { $0 + max(0, $1.words.count - window + 1) }
        places.reserveCapacity(total)
        head.reserveCapacity(total)
        var reported = Set<[Int]>()
        var found: [Repeat] = []
        for (f, segments) in tokens.enumerated() {
            for (s, (words, hashes)) in segments.enumerated() where words.count >= window {
                let mask = standardMask(words)
                for start in 0...(words.count - window) where !mask[start..<(start + window)].contains(true) {
                    var h: UInt64 = 0
                    for i in start..<(start + window) { h = (h &* 1_099_511_628_211) ^ hashes[i] }
                    var link = head[h] ?? -1
                    var sameFileSeen = false
                    while link >= 0 {
                        let place = places[Int(link)]
                        link = place.next
                        if Int(place.file) == f { sameFileSeen = true; continue }
                        let other = tokens[Int(place.file)][Int(place.segment)].words, at = Int(place.start)
                        guard other[at..<(at + window)].elementsEqual(words[start..<(start + window)]),
                              reported.insert([Int(place.file), f]).inserted else { continue }
                        // Extend forward to show the whole shared run, not just its first 12 words.
                        var length = window
                        while start + length < words.count, at + length < other.count, words[start + length] == other[at + length] { length += 1 }
                        found.append(Repeat(first: files[Int(place.file)].path, second: files[f].path, words: Array(words[start..<(start + length)])))
                    }
                    if !sameFileSeen {
                        places.append(Place(file: Int32(f), segment: Int32(s), start: Int32(start), next: head[h] ?? -1))
                        head[h] = Int32(places.count - 1)
                    }
                }
            }
        }
        return found.sorted { ($0.first, $0.second) < ($1.first, $1.second) }
    }

    /// FNV-1a over the word's UTF-8 bytes.
    static func hash(_ word: String) -> UInt64 {
        var h: UInt64 = 14_695_981_039_346_656_037
        for b in word.utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return h
    }
}
