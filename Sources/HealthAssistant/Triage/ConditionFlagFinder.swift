import Foundation
import Linear

/// Evidence from the leading conditions: the red flags their files list, found in the question's
/// words or (with Complete) said in other words, and crisis conditions leading the ranking. It
/// only reports evidence; the triage engine decides.
struct ConditionFlagFinder: Sendable {
    let policy: TriagePolicyData

    /// Red flags of `candidates` present in the findings. A v1 flag fires when one positive clause
    /// holds every content word of it. A v2 flag fires when the findings it names are present and
    /// its population fits; a finding is present when one positive clause (with the next) holds
    /// every content word of its name, or of a lay wording of at least `min_content_words` words (a one-word wording —
    /// "weakness", "red all over" — is too loose to escalate on, as it is for v1 flags).
    /// A flag met through one finding alone is a warning sign of *this* condition only when the
    /// question shows the condition too (one more of its findings): drooling is a danger sign in
    /// croup, not in a teething baby.
    /// A one-word wording still counts when few conditions use the word (`single_word_max_conditions`
    /// over `lexicon`): "chemo" says which finding it is.
    /// `matched`: per candidate id, the findings the analyser matched (by meaning too): they show
    /// the condition around a lone finding, though the flag's own finding must still be in the words.
    /// `named`: ids of the conditions the person named ("he has a hernia"): the name shows the
    /// condition around a lone finding.
    func lexicalFlags(_ f: Findings, candidates: [ConditionProfile], matched: [String: [String]] = [:], named: Set<String> = [],
                      lexicon: SymptomLexicon? = nil, polarity: AbilityPolarity? = nil) -> [TriageEvidence] {
        let positive = f.positive
        let clauseStems = positive.map { Set(TextMatch.stems($0)) }
        let allStems = clauseStems.reduce(into: Set<String>()) { $0.formUnion($1) }
        // A finding's words may run over into the next clause: the parser splits "diarrhoea with
        // blood" at "with", and "bloody diarrhoea" must still be found there.
        let spans = clauseStems.indices.map { i in i + 1 < clauseStems.count ? clauseStems[i].union(clauseStems[i + 1]) : clauseStems[i] }
        var hits: [TriageEvidence] = []
        let wentAway = Self.wentAway(positive, policy: policy)
        for condition in candidates {
            // The clause holding each finding of this condition: `strict` counts the name and the
            // wordings of enough words (what a flag needs), `loose` any wording (what context needs).
            var strict: [String: Int] = [:], loose: Set<String> = []
            let structured = condition.redFlags.contains(where: \.isStructured)
            for s in condition.symptoms where structured {
                for (v, stems) in s.variantStems.enumerated() where !stems.isEmpty && stems.allSatisfy(allStems.contains) {
                    guard var c = spans.firstIndex(where: { cs in stems.allSatisfy(cs.contains) }) else { continue }
                    // Cite the clause that holds the words: the next one when this one holds none.
                    if !stems.contains(where: clauseStems[c].contains), c + 1 < clauseStems.count { c += 1 }
                    // A finding worded as something lost ("can't pee") leaves only "pee" once its
                    // negation is dropped from the stems: the clause must say the loss too ("up three
                    // times a night to pee" is the opposite).
                    if let polarity, polarity.saysLoss(s.variants.indices.contains(v) ? s.variants[v] : s.name) || polarity.saysLoss(s.name),
                       !Self.saysLossOrDenial(positive[c], polarity: polarity, policy: policy) { continue }
                    loose.insert(s.name)
                    if v == 0 || stems.count >= policy.conditionFlagMinWords
                        || stems.count == 1 && lexicon?.isSpecific(stems[0], limit: policy.conditionFlagSingleWordMaxConditions) == true {
                        strict[s.name] = c; break
                    }
                }
            }
            for flag in condition.redFlags {
                if flag.isStructured {
                    guard Self.population(flag.population, fits: f) else { continue }
                    if wentAway, Self.saysGoingOn(flag.flag, policy: policy) { continue }
                    let all = flag.all.map { strict[$0] }, any = flag.any.compactMap { strict[$0] }
                    guard all.allSatisfy({ $0 != nil }), flag.any.isEmpty || !any.isEmpty else { continue }
                    let own = Set(flag.all + flag.any)
                    // A key finding is the condition's own picture; a lone other one (drooling in
                    // croup) is a danger sign only with the condition around it.
                    let lone = Set(flag.all).count + (flag.any.isEmpty ? 0 : 1) < 2
                    func isKey(_ name: String) -> Bool { condition.symptoms.contains { $0.name == name && $0.weight == "key" } }
                    let metByKey = (all.compactMap { $0 }.isEmpty ? flag.any.filter { strict[$0] != nil } : flag.all).contains(where: isKey)
                    let context = loose.union(matched[condition.id] ?? [])
                    // The analyser finding one of its key findings (by meaning too) shows the
                    // condition itself: "can't see anything on the left side" is a flag of sudden
                    // vision loss when the message also reads as a sudden loss of sight.
                    let keyShown = (matched[condition.id] ?? []).contains(where: isKey)
                    if policy.loneFindingNeedsContext, lone, !(policy.loneKeyFindingStands && (metByKey || keyShown)), !named.contains(condition.id),
                       !context.contains(where: { !own.contains($0) }) { continue }
                    let clause = (all.compactMap { $0 } + any).first.map { positive[$0] } ?? positive.first ?? f.text
                    hits.append(evidence(.conditionFlag, flag, condition, clause: clause))
                } else {
                    let stems = TextMatch.stems(flag.flag)
                    guard stems.count >= policy.conditionFlagMinWords else { continue }
                    if let i = clauseStems.firstIndex(where: { s in stems.allSatisfy(s.contains) }) {
                        hits.append(evidence(.conditionFlag, flag, condition, clause: positive[i]))
                    }
                }
            }
        }
        return hits
    }

    /// Red flags of `candidates` that a clause expresses in other words (embedding match).
    func similarFlags(_ f: Findings, clauseVectors: Matrix, model: SymptomModel, candidates: [ConditionProfile],
                      existing: [TriageEvidence], polarity: AbilityPolarity? = nil) -> [TriageEvidence] {
        let ids = Set(candidates.map(\.id))
        var hits: [TriageEvidence] = []
        let wentAway = Self.wentAway(f.positive, policy: policy)
        for (e, entry) in model.flagEntries.enumerated() where ids.contains(model.profiles[entry.condition].id) {
            let profile = model.profiles[entry.condition]
            guard entry.symptom < profile.redFlags.count else { continue }
            let flag = profile.redFlags[entry.symptom]
            guard Self.population(flag.population, fits: f) else { continue }
            // As for the flags found word for word: a trouble that went away meets no flag of one going on.
            if wentAway, Self.saysGoingOn(entry.phrase, policy: policy) { continue }
            // A flag worded as an ability lost ("suddenly unable to pee at all") is met only by a
            // clause that says something is lost or not done: by meaning, "up 3 times every night
            // to pee" sat as close to it as "can't pee" does.
            let saysLoss = polarity?.saysLoss(entry.phrase) ?? false
            for (c, clause) in f.clauses.enumerated() where !clause.negated && !clause.literalOnly && c < clauseVectors.rows {
                if saysLoss, let polarity, !Self.saysLossOrDenial(clause.text, polarity: polarity, policy: policy) { continue }
                var s: Float = 0
                for j in 0..<clauseVectors.cols { s += clauseVectors[c, j] * model.flags[e, j] }
                // A clause that only repeats some of the flag's words ("shivering" against
                // "shivering has stopped") lacks exactly the part that makes it a red flag, however
                // close the two sentences sit in embedding space.
                if s >= policy.similarFlagMinSimilarity, !existing.contains(where: { $0.flag == entry.phrase }),
                   !hits.contains(where: { $0.flag == entry.phrase }), !Self.saysOnlyPartOf(entry.phrase, clause: clause.text),
                   !Self.turnsRound(flag: entry.phrase, clause: clause.text, policy: policy) {
                    hits.append(evidence(.similarFlag, flag, profile, clause: clause.text))
                }
            }
        }
        return hits
    }

    /// Words of suicide or self-harm phrased in ways no rule anticipated still reach the crisis
    /// conditions: one of them leading the ranking with a matched symptom is crisis evidence.
    /// `withinTop`: how far down the ranking to look (default `crisis_conditions.within_top`);
    /// `needsMatch: false` takes a crisis condition ranked by retrieval alone (for the concept route,
    /// which brings its own evidence).
    func crisisCondition(_ f: Findings, ranked: [RankedCondition], withinTop: Int? = nil, needsMatch: Bool = true) -> TriageEvidence? {
        guard let crisis = ranked.prefix(withinTop ?? policy.crisisWithinTop).first(where: { policy.crisisConditionIDs.contains($0.profile.id) && (!needsMatch || !$0.matched.isEmpty) })
        else { return nil }
        return TriageEvidence(kind: .crisisCondition, level: .emergency, flag: "possible thoughts of suicide or self-harm",
                              clause: f.positive.first ?? f.text, id: crisis.profile.id, condition: crisis.profile.id, crisis: true)
    }

    func evidence(_ kind: TriageEvidence.Kind, _ flag: ConditionProfile.RedFlag, _ condition: ConditionProfile, clause: String) -> TriageEvidence {
        TriageEvidence(kind: kind, level: flag.level, flag: flag.flag, clause: clause, id: condition.id, condition: condition.id)
    }

    /// Whether a flag's population (schema v2) fits the person; an unknown age or history does not
    /// fit a population that needs it, except pregnancy, read from the question itself.
    static func population(_ population: String?, fits f: Findings) -> Bool {
        switch population {
        case nil: return true
        case "infant-under-3-months": return (f.ageYears ?? 99) < 0.25
        case "child": return (f.ageYears ?? 99) < 16
        case "older-adult": return (f.ageYears ?? 0) >= 65
        case "pregnant": return f.pregnant || f.postpartum  // pre-eclampsia and bleeding run on after the birth
        case "on-anticoagulants": return f.history.contains("on blood thinners")
        case "immunosuppressed": return f.history.contains("weakened immunity")
        default: return true
        }
    }

    /// Whether a flag that holds a word turning it round ("bleeding that does not stop") meets a
    /// clause that holds neither such a word nor one of persistence ("still bleeding"), or a clause
    /// says something went away ("fades", "stopped") that the flag does not: then the clause says
    /// the opposite ("it stopped bleeding after five minutes"), however close the two sentences sit
    /// in embedding space.
    static func turnsRound(flag: String, clause: String, policy: TriagePolicyData) -> Bool {
        let negatedFlag = holds(flag, policy.similarFlagPolarityWords) && !holds(clause, policy.similarFlagPolarityWords.union(policy.similarFlagPersistenceWords))
        // "a rash that fades when I press a glass on it" against "a rash that stays when a glass is pressed on it".
        let reversedClause = holds(clause, policy.similarFlagReversalWords) && !holds(flag, policy.similarFlagReversalWords)
        return negatedFlag || reversedClause
    }

    /// Whether `text` holds one of `words` (apostrophes kept, so "n't" and "doesnt" both count).
    static func holds(_ text: String, _ words: Set<String>) -> Bool {
        text.lowercased().replacingOccurrences(of: "’", with: "'").split { !($0.isLetter || $0 == "'") }.contains { w in
            words.contains(String(w)) || words.contains(w.replacingOccurrences(of: "'", with: "")) || (words.contains("n't") && w.hasSuffix("n't"))
        }
    }

    /// Whether a clause says something is lost or not there: an inability ("can't", "unable") or a
    /// polarity word ("no", "nothing", "never").
    static func saysLossOrDenial(_ clause: String, polarity: AbilityPolarity, policy: TriagePolicyData) -> Bool {
        polarity.saysLoss(clause) || holds(clause, policy.similarFlagPolarityWords)
    }

    /// The person says it went away ("pinched it and it stopped after ten minutes") and nothing
    /// says it goes on: a flag worded as going on ("keeps soaking through", "will not stop") is
    /// not met by the rest of the story ("blood everywhere").
    static func wentAway(_ positive: [String], policy: TriagePolicyData) -> Bool {
        positive.contains { saysGone($0, policy: policy) } && !positive.contains { saysGoingOn($0, policy: policy) }
    }

    /// A clause saying something went away ("it stopped bleeding after five minutes", "the rash
    /// fades"): a reversal word with no negation or persistence word ("hasn't stopped", "still")
    /// and not a new state ("stopped breathing").
    static func saysGone(_ text: String, policy: TriagePolicyData) -> Bool {
        holds(text, policy.similarFlagReversalWords)
            && !holds(text, policy.similarFlagPolarityWords.union(policy.similarFlagPersistenceWords))
            && text.range(of: #"\bstop(ped|s)? [a-z]+ing\b"#, options: [.regularExpression, .caseInsensitive]) == nil
    }

    /// A flag worded as a trouble that goes on: a persistence word ("keeps soaking through") or a
    /// denied stop ("does not stop", "won't stop").
    static func saysGoingOn(_ flag: String, policy: TriagePolicyData) -> Bool {
        holds(flag, policy.similarFlagPersistenceWords)
            || holds(flag, policy.similarFlagPolarityWords) && flag.range(of: #"\bstop"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// True when every content word of the clause is among the phrase's, and some of the phrase's are missing.
    static func saysOnlyPartOf(_ phrase: String, clause: String) -> Bool {
        let p = Set(TextMatch.stems(phrase)), c = Set(TextMatch.stems(clause))
        return c.isSubset(of: p) && c.count < p.count
    }
}
