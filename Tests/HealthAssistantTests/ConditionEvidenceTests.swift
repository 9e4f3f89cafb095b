import Testing
@testable import HealthAssistant

/// What a condition's own data says about a question: its v2 red flags (findings within one clause,
/// loose wordings kept out, a lone side finding needing its condition around it), flags said in
/// other words turned round by a negation, and a course far shorter than the person's trouble.
struct ConditionEvidenceTests {
    func profile(triage: TriageLevel = .urgent, course: String? = nil, symptoms: [(String, String, [String])],
                 flags: [ConditionProfile.RedFlag]) -> ConditionProfile {
        var p = ConditionProfile(id: "x", name: "X", aliases: [], triage: triage, prevalence: "common", ages: ["any"], sex: "any",
                                 symptoms: symptoms.map { .init(name: $0.0, variants: [$0.0] + $0.2, weight: $0.1, weightValue: 1) },
                                 redFlags: flags, path: "conditions/x.md", system: "respiratory")
        p.course = course
        return p
    }

    func flags(_ text: String, _ p: ConditionProfile) throws -> [String] {
        let k = try TestKnowledge.loaded.get()
        return ConditionFlagFinder(policy: k.policy).lexicalFlags(k.parser.parse(text), candidates: [p]).map(\.flag)
    }

    let croup = [("barking cough", "key", ["cough like a seal"]), ("noisy breathing in", "key", ["harsh noise breathing in"]),
                 ("drooling", "occasional", ["dribbling a lot"])]

    @Test func aLoneSideFindingNeedsItsConditionAround() throws {
        let p = profile(symptoms: croup, flags: [.init(flag: "drooling", level: .emergency, any: ["drooling"])])
        #expect(try flags("7 month old drooling loads, red cheek, chewing everything", p).isEmpty, "teething is not croup")
        #expect(try flags("barking cough all night and now drooling", p) == ["drooling"])
    }

    @Test func aLoneKeyFindingStandsOnItsOwn() throws {
        let p = profile(symptoms: [("sudden hearing loss in one ear", "key", ["deaf in one ear"]), ("ringing", "typical", [])],
                        flags: [.init(flag: "hearing lost suddenly", level: .urgent, any: ["sudden hearing loss in one ear"])])
        #expect(try flags("woke up completely deaf in one ear, nothing else wrong", p) == ["hearing lost suddenly"])
    }

    /// A finding worded as something lost ("can't pee") is met only by a clause that says a loss:
    /// without its negation the stems leave "pee", which "up 3 times a night to pee" holds too.
    @Test func aLostAbilityNeedsALossInTheClause() throws {
        let k = try TestKnowledge.loaded.get()
        let p = profile(symptoms: [("weak urine stream", "key", []), ("unable to pee at all", "occasional", ["can't pee"])],
                        flags: [.init(flag: "suddenly unable to pee at all", level: .emergency, any: ["unable to pee at all"])])
        let finder = ConditionFlagFinder(policy: k.policy)
        let polarity = k.findings.polarity
        let up = k.parser.parse("weak urine stream, and I'm up 3 times every night to pee")
        #expect(finder.lexicalFlags(up, candidates: [p], named: [p.id], polarity: polarity).isEmpty)
        let cant = k.parser.parse("weak urine stream for months and tonight he can't pee at all")
        #expect(finder.lexicalFlags(cant, candidates: [p], named: [p.id], polarity: polarity).map(\.flag) == ["suddenly unable to pee at all"])
    }

    /// A condition the person names ("he has a hernia in his groin") shows itself around a lone
    /// finding, and is checked for its flags whatever the ranking says.
    @Test func aNamedConditionIsCheckedForItsFlags() throws {
        var p = profile(symptoms: [("lump in the groin", "key", []), ("lump that will not go back in", "occasional", ["can't push it back in"])],
                        flags: [.init(flag: "a hernia that cannot be pushed back in", level: .emergency, any: ["lump that will not go back in"])])
        p.aliases = ["groin hernia"]
        let names = ConditionNames([p])
        let k = try TestKnowledge.loaded.get()
        let f = k.parser.parse("my dad has a hernia in his groin and tonight he cant push it back in")
        let stems = f.clauses.filter { !$0.negated }.map { Set(TextMatch.stems($0.text)) }
        #expect(names.named(in: stems) == [0])
        let finder = ConditionFlagFinder(policy: k.policy)
        #expect(finder.lexicalFlags(f, candidates: [p]).isEmpty, "a lone occasional finding needs its condition around")
        #expect(finder.lexicalFlags(f, candidates: [p], named: [p.id]).map(\.flag) == ["a hernia that cannot be pushed back in"])
        #expect(names.named(in: k.parser.parse("no hernia, just a groin strain").clauses.filter { !$0.negated }.map { Set(TextMatch.stems($0.text)) }).isEmpty)
        // Short capitals read as common words once lower-cased are no names.
        var ten = p; ten.aliases = ["TEN"]
        #expect(ConditionNames([ten]).named(in: [Set(TextMatch.stems("for ten minutes"))]).isEmpty)
    }

    /// A clause naming a condition as a fear or a guess is set aside from matching by meaning;
    /// a clause naming none, or saying it plainly, is not.
    @Test func aNamedFearIsSetAside() throws {
        var p = profile(triage: .emergency, symptoms: [("chest pain", "key", [])], flags: [])
        p.name = "Heart attack"
        let names = ConditionNames([p])
        let k = try TestKnowledge.loaded.get()
        func aside(_ text: String) -> [String] {
            AskPipeline.settingAsideNamedFears(k.parser.parse(text), names: names, hypothesis: k.parser.lexicon.hypothesis)
                .clauses.filter { $0.literalOnly }.map(\.text)
        }
        #expect(aside("kind of freaking out that I'm having a heart attack. my chest hurts") == ["kind of freaking out that i'm having a heart attack"])
        #expect(aside("is it bad he cant breathe").isEmpty)
        #expect(aside("he had a heart attack last year. chest pain now").isEmpty)
    }

    /// A clause naming a condition in someone else's words (a guess, something read, a relative's
    /// illness) is no finding: the rules do not read it. A professional's view, an event now, or a
    /// clause naming no condition stay the person's.
    @Test func someoneElsesWordsAreNoFinding() throws {
        var p = profile(triage: .emergency, symptoms: [("chest pain", "key", [])], flags: [])
        p.name = "Heart attack"
        var q = profile(triage: .emergency, symptoms: [("lower right tummy pain", "key", [])], flags: [])
        q.name = "Appendicitis"
        let names = ConditionNames([p, q])
        let k = try TestKnowledge.loaded.get()
        func reported(_ text: String) -> Findings {
            AskPipeline.settingAsideNamedFears(k.parser.parse(text), names: names, hypothesis: k.parser.lexicon.hypothesis, reported: k.parser.lexicon.reported)
        }
        let friend = reported("my heart flutters for a second after coffee. my friend said it could be a heart attack")
        #expect(friend.clauses.filter(\.reported).map(\.text) == ["my friend said it could be a heart attack"])
        #expect(!friend.positive.contains("my friend said it could be a heart attack"))
        #expect(!k.engine.hits(friend).contains { $0.rule.id == "self-reported-heart-attack-or-stroke" })
        #expect(k.engine.hits(reported("I think I'm having a heart attack")).contains { $0.rule.id == "self-reported-heart-attack-or-stroke" })
        #expect(reported("my grandad died of a heart attack so I wanted to check").clauses.contains { $0.reported })
        #expect(!k.parser.parse("my grandad died of a heart attack so I wanted to check").history.contains("heart disease"))
        #expect(!reported("the GP said it could be appendicitis").clauses.contains { $0.reported }, "a professional's view")
        #expect(!reported("my wife thinks I'm having a heart attack").clauses.contains { $0.reported }, "an event now")
        #expect(!reported("my wife said I could barely talk").clauses.contains { $0.reported }, "names no condition: what she saw")
        // What to watch for later is nobody's finding yet, named condition or not.
        let ahead = reported("I've had the runs since last night. How will I know if I'm getting dehydrated?")
        #expect(ahead.clauses.filter(\.reported).map(\.text) == ["how will i know if i'm getting dehydrated"])
        #expect(reported("what signs should I look out for").clauses.allSatisfy { $0.reported })
        #expect(reported("he brings up a little milk after feeds. What if he chokes on it in his sleep?").clauses.filter(\.reported).map(\.text) == ["what if he chokes on it in his sleep"])
        #expect(!reported("what if he has stopped breathing again").clauses.contains { $0.reported }, "it happened before")
        #expect(!reported("how do I know if he's having a stroke right now, his face is drooping").clauses.contains { $0.reported && $0.text.contains("drooping") })
    }

    /// A can't-miss condition gives way where a safety rule reading its sign was vetoed.
    @Test func aCantMissGivesWayToARulesException() throws {
        let k = try TestKnowledge.loaded.get()
        let engine = TriageEngine(policy: k.policy)
        let grave = profile(triage: .emergency, symptoms: croup, flags: [])
        let f = k.parser.parse("I have epilepsy, had one of my usual seizures and came round as normal")
        var lead = TriageEngine.Candidate(profile: grave, score: 1, keyCoverage: 1, matched: 3)
        #expect(engine.decide(f, flags: [], ranked: [lead]).level == .emergency)
        lead.givesWay = true
        #expect(engine.decide(f, flags: [], ranked: [lead]).level == .urgent)
        #expect(k.policy.cantMiss.givesWayTo["status-epilepticus"] == ["seizure"])
        #expect(k.engine.hitsAndVetoed(f, among: ["seizure"]).vetoed == ["seizure"])
    }

    /// The analyser finding a key finding (by meaning too) shows the condition around a lone flag.
    @Test func aMatchedKeyFindingShowsTheCondition() throws {
        let p = profile(triage: .emergency, symptoms: [("sudden loss of vision", "key", []), ("loss of half of the visual field", "typical", ["can't see anything on the left side"])],
                        flags: [.init(flag: "any sudden loss of vision", level: .emergency, any: ["sudden loss of vision", "loss of half of the visual field"])])
        let k = try TestKnowledge.loaded.get()
        let f = k.parser.parse("cant see anything on left side out of either eye")
        let finder = ConditionFlagFinder(policy: k.policy)
        #expect(finder.lexicalFlags(f, candidates: [p]).isEmpty)
        #expect(finder.lexicalFlags(f, candidates: [p], matched: [p.id: ["sudden loss of vision"]]).map(\.flag) == ["any sudden loss of vision"])
    }

    /// "out" and "up" are words: "knocked out" is not "knocked my arm", "passed out" not "passed a stone".
    @Test func particlesOfPhrasalVerbsCount() throws {
        let p = profile(symptoms: [("knocked out", "key", ["was out cold"]), ("blow to the head", "key", [])],
                        flags: [.init(flag: "knocked out, even briefly", level: .emergency, any: ["knocked out"])])
        #expect(try flags("on warfarin, I knocked my arm on a door and it bruised", p).isEmpty)
        #expect(try flags("he fell off the ladder and was knocked out for a minute", p) == ["knocked out, even briefly"])
    }

    @Test func findingsCountWithinOneClauseAndNotByOneLooseWord() throws {
        let p = profile(symptoms: [("weakness in the legs", "key", ["weakness", "legs giving way"]), ("back pain", "key", ["sore back"])],
                        flags: [.init(flag: "weak legs with back pain", level: .emergency, all: ["weakness in the legs", "back pain"])])
        #expect(try flags("general weakness and tiredness, back pain for years", p).isEmpty, "'weakness' alone is too loose")
        #expect(try flags("my legs keep giving way, back pain since the fall", p) == ["weak legs with back pain"])
        let q = profile(symptoms: [("red skin over most of the body", "key", ["skin red from head to toe"]), ("itch", "typical", [])],
                        flags: [.init(flag: "red all over", level: .emergency, any: ["red skin over most of the body"])])
        #expect(try flags("my skin is red. it itches. it started from my head down to my toe", q).isEmpty, "words spread over a message are not one finding")
        let g = profile(symptoms: [("diarrhoea", "key", []), ("blood in stool", "occasional", ["bloody diarrhea"])],
                        flags: [.init(flag: "blood in the stool", level: .urgent, any: ["blood in stool"])])
        #expect(try flags("diarrhoea with blood for 2 days", g) == ["blood in the stool"], "a finding runs over into the next clause")
    }

    @Test func aNegatedFlagIsTurnedRoundByAClauseWithoutNegation() throws {
        let policy = try TestKnowledge.loaded.get().policy
        let flag = "bleeding that does not stop after 10 minutes of pressure"
        #expect(ConditionFlagFinder.turnsRound(flag: flag, clause: "it stopped bleeding after five minutes of pressure", policy: policy))
        #expect(!ConditionFlagFinder.turnsRound(flag: flag, clause: "it's still bleeding through the towel", policy: policy))
        #expect(!ConditionFlagFinder.turnsRound(flag: flag, clause: "the bleeding won't stop", policy: policy))
        #expect(!ConditionFlagFinder.turnsRound(flag: "blood spurting from a wound", clause: "blood spurting out", policy: policy))
        #expect(ConditionFlagFinder.turnsRound(flag: "a rash that stays when a glass is pressed on it",
                                               clause: "a rash that fades when I press a glass on it", policy: policy))
    }

    @Test func aCourseFarShorterThanTheTroubleArguesAgainst() throws {
        let k = try TestKnowledge.loaded.get()
        let short = profile(triage: .emergency, course: "hours", symptoms: croup, flags: [])
        let long = profile(course: "chronic", symptoms: croup, flags: [])
        let f = k.parser.parse("constipated for 4 weeks even with laxatives")
        #expect(short.outlasts(f, k.weights.priors) && !long.outlasts(f, k.weights.priors))
        #expect(short.prior(for: f, k.weights.priors) < short.prior(for: k.parser.parse("constipated since yesterday"), k.weights.priors))
        // A leading emergency the person has had for far longer than it lasts is urgent, not an emergency.
        #expect(try levels(short, f, f) { $0.outlasted = true } == (.urgent, .emergency))
    }

    /// The level a leading emergency condition of full key coverage gets when `contest` marks it
    /// contested (asked with `contested`) and when nothing does (asked with `plain`).
    func levels(_ p: ConditionProfile, _ contested: Findings, _ plain: Findings,
                contest: (inout TriageEngine.Candidate) -> Void) throws -> (TriageLevel, TriageLevel) {
        let engine = TriageEngine(policy: try TestKnowledge.loaded.get().policy)
        var candidate = TriageEngine.Candidate(profile: p, score: 1, keyCoverage: 1, matched: 3)
        let typical = engine.decide(plain, flags: [], ranked: [candidate])
        contest(&candidate)
        return (engine.decide(contested, flags: [], ranked: [candidate]).level, typical.level)
    }

    /// A person well outside a condition's numeric age range contests its picture: a can't-miss
    /// condition of people 50 and over is possible at most in a 31-year-old, typical at 70.
    @Test func anAgeFarOutsideTheRangeContestsThePicture() throws {
        let k = try TestKnowledge.loaded.get()
        var old = profile(triage: .emergency, course: "days", symptoms: croup, flags: [])
        old.ageRange = 50...120
        let young = k.parser.parse("I'm 31 and my thighs are sore"), older = k.parser.parse("I'm 70 and my thighs are sore")
        #expect(old.outOfAge(young, margin: k.policy.cantMiss.ageMarginYears) && !old.outOfAge(older, margin: k.policy.cantMiss.ageMarginYears))
        #expect(!old.outOfAge(k.parser.parse("my thighs are sore"), margin: 10))
        #expect(try levels(old, young, older) { $0.outOfAge = true } == (.urgent, .emergency))
    }

    /// A trouble that crept up slowly over months argues against a condition that comes on over
    /// days (schema v2 `onset`); the same months without "slowly" do not.
    @Test func aSlowCreepArguesAgainstAFastOnset() throws {
        let k = try TestKnowledge.loaded.get()
        var fast = profile(triage: .emergency, course: "months", symptoms: croup, flags: [])
        fast.onset = "days"
        #expect(fast.courseArguesAgainst(k.parser.parse("over several months my feet have slowly gone numb and tingly"), k.weights.priors))
        #expect(!fast.courseArguesAgainst(k.parser.parse("my feet have been numb and tingly for several months"), k.weights.priors))
        #expect(!fast.courseArguesAgainst(k.parser.parse("numbness crept up slowly over 3 days"), k.weights.priors))
    }

    /// An urgent safety rule keeps a leading emergency condition at urgent only when it reads every
    /// clause the condition rests on: the calf rule's "painful leg" is not "painful, numb and weak".
    @Test func anUrgentRuleDrawsItsLineOnlyOverWhatItReads() throws {
        let k = try TestKnowledge.loaded.get()
        let engine = TriageEngine(policy: k.policy)
        let limb = profile(triage: .emergency, symptoms: croup, flags: [])
        let f = k.parser.parse("leg suddenly really painful, it is numb and he can't move his toes")
        var rule = TriageEvidence(kind: .rule, level: .urgent, flag: "painful calf", clause: "leg suddenly really painful", id: "calf")
        rule.readClauses = ["leg suddenly really painful"]
        func level(_ support: [String]?) -> TriageLevel {
            engine.decide(f, flags: [rule], ranked: [.init(profile: limb, score: 1, keyCoverage: 0.34, matched: 3, supportingClauses: support)]).level
        }
        #expect(level(["leg suddenly really painful", "it is numb"]) == .emergency)
        #expect(level(["leg suddenly really painful"]) == .urgent)
        #expect(level(["Leg suddenly really painful"]) == .urgent)
        // Support not recorded (keyword-only answers): any urgent rule draws the line, as before.
        #expect(level(nil) == .urgent)
    }

    /// A can't-miss condition's typical picture counts at its own level only within the policy's
    /// score gap of the leading condition; far outscored, it is "possible" (urgent), not an emergency.
    @Test func aFarOutscoredCantMissIsPossibleNotTypical() throws {
        let k = try TestKnowledge.loaded.get()
        let engine = TriageEngine(policy: k.policy)
        var mild = profile(triage: .selfCare, symptoms: croup, flags: [])
        mild.id = "mild"
        let grave = profile(triage: .emergency, symptoms: croup, flags: [])
        let f = k.parser.parse("tingling lip and a small blister")
        func level(gap: Double) -> TriageLevel {
            engine.decide(f, flags: [], ranked: [.init(profile: mild, score: 1, keyCoverage: 1, matched: 3),
                                                 .init(profile: grave, score: 1 - gap, keyCoverage: 1, matched: 3)]).level
        }
        #expect(level(gap: 0.1) == .emergency)
        #expect(level(gap: k.policy.cantMiss.maxScoreGap + 0.5) == .urgent)
    }

    /// A flag worded as a bleed that goes on is not met by "blood everywhere" when the person says
    /// it stopped, and still is when nothing says so, or when something says it goes on.
    @Test func aFlagThatGoesOnIsNotMetWhenThePersonSaysItStopped() throws {
        let bleed = [("large pool of blood", "key", ["blood everywhere"]), ("bleeding from a wound", "key", ["cut is bleeding"])]
        let p = profile(triage: .emergency, symptoms: bleed,
                        flags: [.init(flag: "bleeding that keeps soaking through after ten minutes of pressure", level: .emergency, any: ["large pool of blood"])])
        #expect(try flags("son 6 picked his nose, blood everywhere, pinched the soft part and it stopped after 10 min", p).isEmpty)
        #expect(try flags("cut my hand, blood everywhere", p).count == 1)
        #expect(try flags("blood everywhere, it stopped for a minute but it is still pouring", p).count == 1)
        #expect(try flags("blood everywhere, the pain settled but the bleeding won't stop", p).count == 1, "a bleed that will not stop goes on")
    }
}
