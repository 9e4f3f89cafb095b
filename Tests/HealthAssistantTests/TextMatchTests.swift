import Foundation
import Testing
import TestSupport
@testable import HealthAssistant

/// `TextMatch.stem` takes a byte path for ASCII words; it must give exactly what the Unicode-aware
/// Character path gives, or lexical matching (and so answers) would change.
struct TextMatchTests {
    @Test func asciiStemAgreesWithCharacterStemOnEveryCorpusWord() throws {
        let folder = packageRoot.appendingPathComponent("corpus/conditions")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
        #expect(files.count > 100)
        var words = Set<String>()
        for file in files { words.formUnion(TextMatch.words(try String(contentsOf: file, encoding: .utf8))) }
        for w in words { #expect(TextMatch.stem(w) == TextMatch.characterStem(w), "\(w)") }
    }

    /// The noun and the participle meet: "confused" is "confusion", "agitated" is "agitation",
    /// "infected" is "infection"; short words keep their ending ("lotion", "vision").
    @Test func nounsInIonMeetTheirVerbs() {
        for (a, b) in [("confused", "confusion"), ("agitated", "agitation"), ("infected", "infections"), ("dehydrated", "dehydration"),
                       ("dislocated", "dislocation"), ("constipated", "constipation")] {
            #expect(TextMatch.stem(a) == TextMatch.stem(b), "\(a) / \(b)")
        }
        #expect(TextMatch.stem("vision") == "vision" && TextMatch.stem("lotion") == "lotion")
    }

    /// Texting drops apostrophes: "cant see" is read as "can't see", and a word that merely ends in
    /// "nt" stays whole.
    @Test func contractionsWithoutApostrophes() {
        #expect(TextMatch.stems("cant see anything on the left side") == TextMatch.stems("can't see anything on the left side"))
        #expect(TextMatch.words("he doesnt wake up") == ["he", "doesn", "t", "wake", "up"])
        #expect(TextMatch.words("pregnant patient") == ["pregnant", "patient"])
        #expect(TextMatch.words("Doesnt Wont") == ["doesn", "t", "won", "t"])
    }

    /// Irregular forms meet their regular ones.
    @Test func irregularFormsMeetTheirBase() {
        for (a, b) in [("thrown", "throwing"), ("fell", "falling"), ("broken", "break"), ("bled", "bleeding")] {
            #expect(TextMatch.stem(a) == TextMatch.stem(b), "\(a) / \(b)")
        }
    }

    @Test(arguments: [
        "", "s", "ness", "illness", "haem", "haemorrhage", "haemorrhoids", "oesophagus", "orthopaedics", "tumours", "colouring",
        "sulphur", "paediatric", "mould", "moulds", "apnoea", "feet", "days", "bodies", "aching", "tired", "Haem", "HAEMATOMA",
        "a-b", "stiff neck", "x\r\ny", "tumour\r\n", "héadache", "naüsea", "café", "diarrhoeaés", "haemé", "38.5", "cr\r\nlf",
    ])
    func byteAndCharacterStemsAgree(word: String) {
        #expect(TextMatch.stem(word) == TextMatch.characterStem(word))
    }
}
