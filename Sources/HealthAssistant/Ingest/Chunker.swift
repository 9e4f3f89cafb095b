import Foundation

/// Splits a document's sections into retrieval chunks of about `targetTokens` WordPiece tokens.
/// Chunks never cross a heading (so each cites one place), break at sentence ends where possible,
/// and repeat the last sentence or two of the previous chunk (`overlapTokens`) so a fact that
/// straddles a boundary is whole in at least one chunk.
public struct Chunker: Sendable {
    public struct Chunk: Sendable, Equatable {
        public var headingPath: [String]
        public var text: String
        public var tokenCount: Int
        public var headingLabel: String { headingPath.joined(separator: " > ") }
    }

    public var targetTokens = 200
    public var overlapTokens = 40
    let countTokens: @Sendable (String) -> Int

    public init(targetTokens: Int = 200, overlapTokens: Int = 40, countTokens: @escaping @Sendable (String) -> Int) {
        self.targetTokens = targetTokens
        self.overlapTokens = overlapTokens
        self.countTokens = countTokens
    }

    public func chunks(_ document: MarkdownDocument) -> [Chunk] {
        document.sections.flatMap { chunks(section: $0) }
    }

    func chunks(section: MarkdownDocument.Section) -> [Chunk] {
        let units = Self.sentences(section.text).flatMap { splitLong($0) }
        var out: [Chunk] = []
        var current: [(text: String, tokens: Int)] = []
        var currentTokens = 0
        func emit() {
            guard !current.isEmpty else { return }
            out.append(Chunk(headingPath: section.headingPath, text: current.map(\.text).joined(separator: " "), tokenCount: currentTokens))
        }
        for sentence in units {
            let tokens = countTokens(sentence)
            if currentTokens + tokens > targetTokens && !current.isEmpty {
                emit()
                // Carry the tail of the previous chunk forward as overlap.
                var carried: [(text: String, tokens: Int)] = []
                var carriedTokens = 0
                for s in current.reversed() {
                    if carriedTokens + s.tokens > overlapTokens { break }
                    carried.insert(s, at: 0)
                    carriedTokens += s.tokens
                }
                current = carried
                currentTokens = carriedTokens
            }
            current.append((sentence, tokens))
            currentTokens += tokens
        }
        emit()
        return out
    }

    /// A sentence longer than the target is cut at word boundaries.
    func splitLong(_ sentence: String) -> [String] {
        guard countTokens(sentence) > targetTokens else { return [sentence] }
        var pieces: [String] = []
        var words: [Substring] = []
        for word in sentence.split(separator: " ") {
            words.append(word)
            if words.count >= targetTokens / 2 {
                pieces.append(words.joined(separator: " "))
                words = []
            }
        }
        if !words.isEmpty { pieces.append(words.joined(separator: " ")) }
        return pieces
    }

    /// Sentences and list items, in order. Blank lines and list markers end a unit; ". ", "! ", "? " too.
    static func sentences(_ text: String) -> [String] {
        var units: [String] = []
        for block in text.components(separatedBy: "\n\n") {
            // Lines of one paragraph are joined; each list item stands alone.
            var paragraphs: [String] = []
            for line in block.split(separator: "\n") {
                let l = line.trimmingCharacters(in: .whitespaces)
                if l.isEmpty { continue }
                if let marker = ["- ", "* ", "+ "].first(where: l.hasPrefix) {
                    paragraphs.append(String(l.dropFirst(marker.count)))
                } else if let last = paragraphs.last, !block.contains("\n- "), !block.hasPrefix("- ") {
                    paragraphs[paragraphs.count - 1] = last + " " + l
                } else {
                    paragraphs.append(l)
                }
            }
            for l in paragraphs {
                var start = l.startIndex
                var i = l.startIndex
                while i < l.endIndex {
                    let c = l[i]
                    let next = l.index(after: i)
                    if c == "." || c == "!" || c == "?", next < l.endIndex, l[next] == " " {
                        let s = l[start...i].trimmingCharacters(in: .whitespaces)
                        if !s.isEmpty { units.append(s) }
                        start = next
                    }
                    i = next
                }
                let tail = l[start...].trimmingCharacters(in: .whitespaces)
                if !tail.isEmpty { units.append(tail) }
            }
        }
        return units
    }
}
