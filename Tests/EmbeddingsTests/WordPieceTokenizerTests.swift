import Foundation
import Testing
@testable import Embeddings

struct WordPieceTokenizerTests {
    static let vocab: [String: Int32] = {
        let tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "fever", "cafe", "!", ",", "a", "##b", "腹", "痛", "neck", "stiff"]
        return Dictionary(uniqueKeysWithValues: tokens.enumerated().map { ($1, Int32($0)) })
    }()

    func tokenizer(maxLength: Int = 256) throws -> WordPieceTokenizer {
        try WordPieceTokenizer(vocabulary: Self.vocab, maxLength: maxLength)
    }

    @Test func basicTokenizerLowercasesStripsAccentsAndSplitsPunctuation() {
        let basic = BasicTokenizer()
        #expect(basic.tokenize("Café, FEVER!") == ["cafe", ",", "fever", "!"])
        // Control and format characters vanish without splitting the word, as in BERT.
        #expect(basic.tokenize("  tab\there\u{0007}\u{200B}x ") == ["tab", "herex"])
        #expect(basic.tokenize("腹痛and") == ["腹", "痛", "and"])
        #expect(basic.tokenize("a$b^c") == ["a", "$", "b", "^", "c"])
        #expect(basic.tokenize("") == [])
    }

    @Test func greedyLongestMatchWithContinuationPrefix() throws {
        let t = try tokenizer()
        #expect(t.encode("unaffable") == [2, 4, 5, 6, 3])
        #expect(t.encode("Stiff neck, fever!") == [2, 16, 15, 10, 7, 9, 3])
        #expect(t.encode("abbb") == [2, 11, 12, 12, 12, 3])
    }

    @Test func unknownWordsBecomeOneUnk() throws {
        let t = try tokenizer()
        #expect(t.encode("unzzz fever") == [2, 1, 7, 3])
        #expect(t.encode(String(repeating: "a", count: 101)) == [2, 1, 3])
    }

    @Test func emptyAndWhitespaceGiveJustTheSpecials() throws {
        let t = try tokenizer()
        #expect(t.encode("") == [2, 3])
        #expect(t.encode(" \n\t ") == [2, 3])
    }

    @Test func truncationKeepsClsAndSep() throws {
        let t = try tokenizer(maxLength: 5)
        #expect(t.encode("fever fever fever fever fever") == [2, 7, 7, 7, 3])
    }

    @Test func missingSpecialTokenIsAClearError() {
        var v = Self.vocab
        v["[SEP]"] = nil
        #expect(throws: EmbeddingError.self) { try WordPieceTokenizer(vocabulary: v) }
    }
}
