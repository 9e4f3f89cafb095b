import Testing
@testable import HealthAssistant

/// The safety rules on their own (no model, no index): they must fire on the words they are
/// written for and stay silent on ordinary words that merely contain them.
struct RedFlagDetectorTests {
    let parser = FindingsParser()
    let detector = RedFlagDetector()

    func flags(_ text: String) -> [RedFlagDetector.Hit] {
        detector.detect(parser.parse(text), candidates: [])
    }

    // Each of these once raised an emergency: "rta" inside "uncomfortable", "bee" inside "been",
    // "fitting" into shoes, "balls" as a shape, a burning feeling, sores on the face.
    @Test(arguments: [
        "The sores are itchy and uncomfortable, and a yellow ooze comes out of them",
        "I have been dizzy and light headed for a few days",
        "I feel dizzy for a few minutes after getting up",
        "the swelling in my legs makes it difficult fitting into my shoes",
        "I get little pimples that look like tiny balls and they are swollen",
        "the rash is made up of burning red lesions on my face",
        "the sores on my face are swollen and sore",
        "it is important that I get this checked, my back aches",
        "I read about the benefit of walking and now my knee hurts",
        "I think I have food poisoning from a takeaway",
        "I took 2 paracetamol and it didn't help my headache",
        "not breathing fast, just a runny nose",
    ])
    func ordinaryWordsRaiseNoEmergency(text: String) {
        let emergencies = flags(text).filter { $0.level == .emergency }
        #expect(emergencies.isEmpty, "\(emergencies.map { "\($0.flag) ← \($0.clause)" })")
    }

    @Test(arguments: [
        ("I was in a car crash and now my neck hurts", "major trauma"),
        ("stung by a bee and my throat feels tight", "anaphylaxis"),
        ("my son is fitting and won't stop shaking", "seizure"),
        ("he had a fit this morning", "seizure"),
        ("sudden severe pain in my balls", "testicle"),
        ("I burnt my face with boiling water", "burn"),
        ("the rta left me with back pain", "major trauma"),
        // The negation word is part of these findings; they were once read as denials.
        ("he is not breathing", "breathing"),
        ("she isn't responding to me", "unresponsive"),
        ("the rash does not fade when I press a glass on it", "does not fade"),
        ("36 weeks pregnant and the baby is not moving today", "reduced movements"),
        // Lay phrasings once missed.
        ("my chest hurts and I'm sweating", "chest pain"),
        ("I think I'm having a heart attack", "heart attack"),
        ("I can't go on anymore", "suicide"),
    ])
    func realRedFlagsStillFire(text: String, flag: String) {
        let hits = flags(text)
        #expect(hits.contains { $0.level == .emergency && $0.flag.contains(flag) }, "\(hits.map(\.flag))")
    }

    @Test func stemsInsideOtherWordsDoNotCount() {
        #expect(flags("I feel uncomfortable").isEmpty)
        // …but a stem at the start of a word still matches its endings.
        #expect(!flags("I'm on warfarin and have had three nosebleeds today").isEmpty)
        #expect(flags("severe sunburn with blisters over my whole back").contains { $0.flag.contains("burn") })
    }

    @Test func aClauseWithOnlyPartOfAFlagIsNotThatFlag() {
        #expect(AnswerComposer.saysOnlyPartOf("shivering has stopped", clause: "shivering"))
        #expect(!AnswerComposer.saysOnlyPartOf("shivering has stopped", clause: "the shivering has stopped"))
        #expect(!AnswerComposer.saysOnlyPartOf("blue lips", clause: "his lips turned blue"))
    }
}
