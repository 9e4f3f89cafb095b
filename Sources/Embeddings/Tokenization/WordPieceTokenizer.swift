import Foundation

/// WordPiece over a BERT vocabulary: basic tokenisation, then greedy longest-match sub-words with
/// the `##` continuation prefix, `[UNK]` for words it cannot cover, `[CLS] … [SEP]` around it all,
/// truncated to `maxLength` tokens including the two specials.
public struct WordPieceTokenizer: Sendable {
    public let vocabulary: [String: Int32]
    public let maxLength: Int
    public let clsID: Int32
    public let sepID: Int32
    public let unkID: Int32
    public let padID: Int32
    let basic: BasicTokenizer
    /// Words longer than this are `[UNK]` outright, as in BERT (keeps the greedy loop bounded).
    let maxInputCharsPerWord = 100

    public init(vocabulary: [String: Int32], maxLength: Int = 256, lowercase: Bool = true, source: String = "vocab.txt") throws {
        func id(_ token: String) throws -> Int32 {
            guard let v = vocabulary[token] else {
                throw EmbeddingError.invalidVocabulary(file: source, reason: "special token \(token) is missing")
            }
            return v
        }
        guard maxLength >= 2 else { throw EmbeddingError.invalidConfig(file: source, reason: "max length \(maxLength) < 2") }
        self.vocabulary = vocabulary
        self.maxLength = maxLength
        self.clsID = try id("[CLS]")
        self.sepID = try id("[SEP]")
        self.unkID = try id("[UNK]")
        self.padID = try id("[PAD]")
        self.basic = BasicTokenizer(lowercase: lowercase)
    }

    /// Loads `vocab.txt`: one token per line, the id is the line number.
    public init(vocabularyFile url: URL, maxLength: Int = 256, lowercase: Bool = true) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw EmbeddingError.io(file: url.path, reason: error.localizedDescription)
        }
        // Split the bytes on newlines directly: Foundation's line enumeration costs more than the
        // whole rest of a cold start needs here (30k lines).
        var vocab: [String: Int32] = [:]
        vocab.reserveCapacity(32_768)
        var index: Int32 = 0
        var bad = false
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                var end = i
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                if i == bytes.count && start == i { break }
                guard let line = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) else { bad = true; return }
                if vocab[line] == nil { vocab[line] = index }
                index += 1
                start = i + 1
            }
        }
        if bad { throw EmbeddingError.invalidVocabulary(file: url.path, reason: "not UTF-8") }
        guard vocab.count > 100 else {
            throw EmbeddingError.invalidVocabulary(file: url.path, reason: "only \(vocab.count) tokens")
        }
        try self.init(vocabulary: vocab, maxLength: maxLength, lowercase: lowercase, source: url.path)
    }

    /// Token ids for `text`, `[CLS]` first and `[SEP]` last.
    public func encode(_ text: String) -> [Int32] {
        var ids: [Int32] = [clsID]
        let budget = maxLength - 2
        outer: for word in basic.tokenize(text) {
            for piece in wordPieces(word) {
                if ids.count - 1 >= budget { break outer }
                ids.append(piece)
            }
        }
        ids.append(sepID)
        return ids
    }

    /// Greedy longest-match-first split of one basic token.
    func wordPieces(_ word: String) -> [Int32] {
        let scalars = Array(word.unicodeScalars)
        if scalars.count > maxInputCharsPerWord { return [unkID] }
        var pieces: [Int32] = []
        var start = 0
        while start < scalars.count {
            var end = scalars.count
            var found: Int32?
            while start < end {
                var candidate = String(String.UnicodeScalarView(scalars[start..<end]))
                if start > 0 { candidate = "##" + candidate }
                if let id = vocabulary[candidate] { found = id; break }
                end -= 1
            }
            guard let id = found else { return [unkID] }
            pieces.append(id)
            start = end
        }
        return pieces
    }
}
