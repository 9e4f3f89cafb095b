import Foundation

/// Cheap lexical matching: lower-case word stems without stop words. A phrase matches a clause
/// when every content stem of the phrase occurs in the clause ("stiff neck" ~ "my neck is stiff").
enum TextMatch {
    static let stopWords: Set<String> = ["a", "an", "the", "of", "in", "on", "to", "and", "or", "my", "is", "are", "am", "i", "it", "its",
                                         "with", "for", "at", "be", "been", "have", "has", "had", "feel", "feeling", "very", "really", "some",
                                         "that", "this", "when", "from", "by", "as", "me", "your", "you", "can", "get", "got", "getting", "also",
                                         "like", "all", "about", "after", "into", "over", "just", "so", "than", "then", "there",
                                         // What is left of a contraction once words split at the apostrophe ("I'm", "it's", "we've");
                                         // not the "t" of "can't", which keeps "can't breathe" from matching "hurts when I breathe".
                                         "m", "s", "re", "ve", "ll", "d"]

    /// Words that carry no symptom in a question ("I have been experiencing … for the past few days").
    static let queryNoise: Set<String> = ["experiencing", "experience", "having", "since", "past", "few", "days", "day", "weeks", "week",
                                          "months", "month", "hours", "now", "lately", "recently", "what", "which", "who", "how", "why",
                                          "do", "does", "did", "was", "were", "will", "would", "should", "could", "but", "not", "no",
                                          "he", "she", "his", "her", "they", "them", "we", "our", "been", "being", "yesterday",
                                          "today", "last", "night", "morning", "lot", "bit", "little", "quite", "more", "most", "much",
                                          "many", "any", "every", "time", "times", "started", "start", "keep", "keeps", "noticed"]

    /// British spellings folded to American before stemming, so "diarrhoea with blood" meets
    /// "bloody diarrhea" and "haemorrhoids" meets "hemorrhoids": the corpus and the people who
    /// write to it use both. Word beginnings, longest first.
    static let spellingFolds: [(String, String)] = [
        ("orthopaed", "orthoped"), ("septicaem", "septicem"), ("leukaem", "leukem"), ("ischaem", "ischem"), ("diarrhoe", "diarrhe"),
        ("oesophag", "esophag"), ("oestrogen", "estrogen"), ("gynaec", "gynec"), ("anaesth", "anesth"), ("dyspnoe", "dyspne"),
        ("anaem", "anem"), ("haem", "hem"), ("oedem", "edem"), ("faec", "fec"), ("foet", "fet"), ("paed", "ped"), ("apnoe", "apne"),
        ("tumour", "tumor"), ("colour", "color"), ("behaviour", "behavior"), ("mould", "mold"), ("sulph", "sulf"),
    ]

    /// Irregular forms people write for what the library says with the regular stem: "thrown up
    /// green" meets "throwing up green", "I fell" meets "after a fall". (Not "swollen" for "swelling":
    /// on the dev sets it made every swollen toe and sprain meet a broken bone.)
    /// Only forms whose base's stem is the base itself (not "bit" for "biting").
    static let irregular: [String: String] = [
        "threw": "throw", "thrown": "throw", "fell": "fall", "fallen": "fall", "broke": "break", "broken": "break",
        "ate": "eat", "eaten": "eat", "stung": "sting", "bled": "bleed",
    ]

    /// The folds and suffixes as bytes, for the ASCII path of `stem`.
    static let spellingFoldBytes: [([UInt8], [UInt8])] = spellingFolds.map { (Array($0.0.utf8), Array($0.1.utf8)) }
    static let suffixes = ["ness", "ions", "ion", "ing", "ies", "ed", "es", "s", "y"]
    static let suffixBytes: [[UInt8]] = suffixes.map { Array($0.utf8) }

    /// The word's stem: British spelling folded, then one common suffix dropped. Runs for every word
    /// of every symptom variant at index load and for every word of every question, so ASCII words
    /// (nearly all) are handled on their bytes; the result is the same as the Character path's,
    /// because in ASCII every byte is one Character (except CR LF, which goes the slow way).
    static func stem(_ w: String) -> String {
        if let base = irregular[w] { return base }
        var contiguous = w
        if let fast = contiguous.withUTF8({ asciiStem(w, $0) }) { return fast }
        return characterStem(w)
    }

    /// nil when `bytes` is not plain ASCII (the caller then stems by Characters).
    static func asciiStem(_ word: String, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for b in bytes where b >= 0x80 || b == 0x0D { return nil }
        var fold: ([UInt8], [UInt8])?
        if let first = bytes.first, Self.foldInitials.contains(first) {
            fold = spellingFoldBytes.first { f in f.0.count <= bytes.count && f.0.indices.allSatisfy { f.0[$0] == bytes[$0] } }
        }
        guard let fold else {
            // Unfolded: the word itself, or a prefix of it.
            let n = bytes.count
            for suffix in suffixBytes where n > suffix.count + 3 && endsWith(bytes, suffix) {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<(n - suffix.count)]), as: UTF8.self)
            }
            return word
        }
        var folded = fold.1
        folded.append(contentsOf: bytes[fold.0.count...])
        return folded.withUnsafeBufferPointer { f in
            let n = f.count
            for suffix in suffixBytes where n > suffix.count + 3 && endsWith(f, suffix) {
                return String(decoding: UnsafeBufferPointer(rebasing: f[0..<(n - suffix.count)]), as: UTF8.self)
            }
            return String(decoding: f, as: UTF8.self)
        }
    }

    static let foldInitials: Set<UInt8> = Set("abcdfghilmopst".utf8)

    static func endsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: [UInt8]) -> Bool {
        let offset = bytes.count - suffix.count
        return offset >= 0 && suffix.indices.allSatisfy { suffix[$0] == bytes[offset + $0] }
    }

    /// The Unicode-aware stem (words with non-ASCII letters); `asciiStem` must agree with it.
    static func characterStem(_ w: String) -> String {
        if let base = irregular[w] { return base }
        var s = w
        if let first = s.first, "abcdfghilmopst".contains(first), let fold = spellingFolds.first(where: { s.hasPrefix($0.0) }) {
            s = fold.1 + s.dropFirst(fold.0.count)
        }
        for suffix in suffixes where s.count > suffix.count + 3 && s.hasSuffix(suffix) {
            s = String(s.dropLast(suffix.count)); break
        }
        return s
    }

    static func stems(_ text: String) -> [String] {
        words(text).filter { !stopWords.contains($0) }.map(stem)
    }

    /// Lower-case words (letters and digits). ASCII text — nearly all of the corpus and of the
    /// questions — is split byte by byte; anything else goes through Unicode-aware Characters.
    static func words(_ text: String) -> [String] {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return text.lowercased().split { !($0.isLetter || $0.isNumber) }.flatMap { splitContraction(String($0)) }
        }
        var out: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(16)
        func flush() {
            guard !current.isEmpty else { return }
            out.append(contentsOf: splitContraction(String(decoding: current, as: UTF8.self)))
            current.removeAll(keepingCapacity: true)
        }
        for b in utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(b)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(b + 32)
            default: flush()
            }
        }
        flush()
        return out
    }

    /// Negative contractions typed without the apostrophe ("cant see", "doesnt wake"), read as the
    /// apostrophe's split reads them ("can" "t"): texting drops apostrophes, and "cant see anything
    /// on the left side" must meet the library's "can't see anything on the left side".
    static let apostropheless: [String: String] = [
        "cant": "can", "couldnt": "couldn", "wont": "won", "dont": "don", "doesnt": "doesn", "didnt": "didn", "isnt": "isn",
        "wasnt": "wasn", "arent": "aren", "werent": "weren", "havent": "haven", "hasnt": "hasn", "hadnt": "hadn",
        "wouldnt": "wouldn", "shouldnt": "shouldn", "aint": "ain",
    ]

    static func splitContraction(_ word: String) -> [String] {
        guard word.count >= 4, word.hasSuffix("t"), let head = apostropheless[word] else { return [word] }
        return [head, "t"]
    }

    static func contains(clauseStems: Set<String>, phrase: String) -> Bool {
        let p = stems(phrase)
        return !p.isEmpty && p.allSatisfy(clauseStems.contains)
    }

    /// Variants of a corpus symptom name: "stiff neck / neck stiffness" → ["stiff neck", "neck stiffness"].
    static func variants(_ name: String) -> [String] {
        // Swift's own split and trim: Foundation's components(separatedBy:) bridged every symptom
        // name of every condition through NSString on each index load.
        name.split(separator: "/").compactMap { part in
            guard let first = part.firstIndex(where: { !$0.isWhitespace }), let last = part.lastIndex(where: { !$0.isWhitespace }) else { return nil }
            return String(part[first...last])
        }
    }
}
