import Foundation
import Testing
@testable import HealthAssistant

/// The safety rules (rules/safety/*.yaml) on their own, through the real parser — no model, no
/// index: they must fire on the words they are written for and stay silent on ordinary words that
/// merely contain them.
struct SafetyRuleTests {
    let parser = TestKnowledge.parser
    let engine = TestKnowledge.engine

    struct Flag { var flag: String; var level: TriageLevel; var id: String; var clause: String }

    func flags(_ text: String) -> [Flag] {
        engine.hits(parser.parse(text)).map { Flag(flag: $0.flag, level: $0.rule.level, id: $0.rule.id, clause: $0.clause) }
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
        // Fever words with no fever, and reactions with a local cause.
        "what room temperature should my 2 month old sleep in",
        "my 2 month old has a runny nose, temperature normal",
        "my 6 week old's temperature is 36.8, is that normal?",
        "I have hay fever and my neck is stiff from sleeping badly",
        "I have tonsillitis and my throat is swollen",
        "my lip is swollen after the dentist",
        "my eyes are stinging and I feel dizzy",
        "this itch is driving me nuts and I feel dizzy",
        "I get dizzy after taking my blood pressure tablets",
        "swelling in my scrotum when I cough, no pain",
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
        ("my mum is too cold and confused", "hypothermia"),
        ("my lips swelled up after eating prawns and my voice is hoarse", "after eating"),
        ("I have tonsillitis and my throat is closing up", "anaphylaxis"),
        ("my 6 week old feels very hot", "under 3 months"),
        ("my 6 week old has a temperature of 38.4", "under 3 months"),
        ("my son woke with a painful swollen testicle", "testicle"),
        ("hay fever and a fever of 39 with a stiff neck", "stiff neck"),
        ("asthma attack, peak flow is 40% of my best", "peak flow under half"),
        // Words in separate clauses, once caught only when the ranking happened to lead with epiglottitis.
        ("my child is drooling, cannot swallow and has a high fever", "drooling"),
        ("my inhaler is not helping and I cannot finish a sentence", "breathing"),
    ])
    func realRedFlagsStillFire(text: String, flag: String) {
        expectFlag(flag, at: .emergency, in: text)
    }

    /// `text` raises a flag naming `flag` at `level`, and nothing above that level.
    func expectFlag(_ flag: String, at level: TriageLevel, in text: String) {
        let hits = flags(text)
        #expect(hits.contains { $0.level == level && $0.flag.contains(flag) }, "\(hits.map(\.flag))")
        #expect(!hits.contains { $0.level > level }, "\(hits.map(\.flag))")
    }

    // Filtered out of the emergency testicle rule, but never below same-day.
    @Test(arguments: ["painless swelling in one testicle for two weeks", "testicle aching and swollen for 3 days with burning pee"])
    func testicleSwellingIsAtLeastUrgent(text: String) {
        let hits = flags(text)
        #expect(hits.contains { $0.flag.contains("testicle") && $0.level >= .urgent }, "\(hits.map(\.flag))")
    }

    @Test(arguments: [
        ("fell on my hand and my wrist might be broken", "broken"),
        ("I think I've broken my arm", "broken"),
        ("peak flow 65% of best and wheezy", "moderate asthma"),
        // "not helping" says the reliever fails; it is not a denial.
        ("I've used my inhaler 4 times and it is not helping", "inhaler"),
    ])
    func sameDaySignsAreUrgent(text: String, flag: String) {
        expectFlag(flag, at: .urgent, in: text)
    }

    @Test func deniedHistoryIsNotHistory() {
        #expect(!parser.parse("I'm not on blood thinners, I have a bruise on my leg").history.contains("on blood thinners"))
        #expect(!parser.parse("no history of diabetes, a sore on my foot is red").history.contains("diabetes"))
        #expect(!parser.parse("bumped my head, I don't take any blood thinners").history.contains("on blood thinners"))
        #expect(!parser.parse("she isn't on warfarin, she fell and hit her head").history.contains("on blood thinners"))
        #expect(parser.parse("he went on warfarin last year and banged his head").history.contains("on blood thinners"))
        #expect(parser.parse("not sure it matters, but I take warfarin").history.contains("on blood thinners"))
        #expect(parser.parse("no fever, diabetic for ten years").history.contains("diabetes"))
        #expect(flags("I'm not on blood thinners and have a small bruise").allSatisfy { !$0.flag.contains("blood thinners") })
    }

    @Test func stemsInsideOtherWordsDoNotCount() {
        #expect(flags("I feel uncomfortable").isEmpty)
        // …but a stem at the start of a word still matches its endings.
        #expect(!flags("I'm on warfarin and have had three nosebleeds today").isEmpty)
        #expect(flags("severe sunburn with blisters over my whole back").contains { $0.flag.contains("burn") })
    }

    @Test func aClauseWithOnlyPartOfAFlagIsNotThatFlag() {
        #expect(ConditionFlagFinder.saysOnlyPartOf("shivering has stopped", clause: "shivering"))
        #expect(!ConditionFlagFinder.saysOnlyPartOf("shivering has stopped", clause: "the shivering has stopped"))
        #expect(!ConditionFlagFinder.saysOnlyPartOf("blue lips", clause: "his lips turned blue"))
    }

    /// A table of lay sentences per rule (Fixtures/red_flag_battery.jsonl, from the safety review):
    /// real emergencies that must fire a rule on their own, without help from the ranking, and
    /// ordinary sentences that must not raise an emergency (or, for "below-urgent", any warning sign).
    @Test func batteryOfLaySentences() throws {
        struct Case: Decodable { let text: String; let expect: String }
        let url = try #require(Bundle.module.url(forResource: "red_flag_battery", withExtension: "jsonl", subdirectory: "Fixtures"))
        let cases = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
        #expect(cases.count >= 250)
        var wrong: [String] = []
        for c in cases {
            let worst = flags(c.text).map(\.level).max()
            let ok: Bool
            switch c.expect {
            case "emergency": ok = worst == .emergency
            case "no-emergency": ok = worst != .emergency
            case "below-urgent": ok = worst.map { $0 < .urgent } ?? true
            default: ok = false
            }
            if !ok { wrong.append("[\(c.expect)] \(c.text) → \(flags(c.text).map { "\($0.level.rawValue): \($0.flag)" })") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(cases.count):\n\(wrong.joined(separator: "\n"))")
    }
}
