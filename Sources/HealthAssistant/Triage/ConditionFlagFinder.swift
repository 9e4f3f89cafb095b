import Linear

/// Evidence from the leading conditions: the red flags their files list, found in the question's
/// words or (with Complete) said in other words, and crisis conditions leading the ranking. It
/// only reports evidence; the triage engine decides.
struct ConditionFlagFinder: Sendable {
    let policy: TriagePolicyData

    /// Red flags of `candidates` present in the findings. A v1 flag fires when one positive clause
    /// holds every content word of it; a v2 flag when the findings it names are present (any of
    /// each finding's wordings, all content words, in the positive clauses) and its population fits.
    func lexicalFlags(_ f: Findings, candidates: [ConditionProfile]) -> [TriageEvidence] {
        let positive = f.positive
        let clauseStems = positive.map { Set(TextMatch.stems($0)) }
        let allStems = clauseStems.reduce(into: Set<String>()) { $0.formUnion($1) }
        var hits: [TriageEvidence] = []
        for condition in candidates {
            for flag in condition.redFlags {
                if flag.isStructured {
                    guard Self.population(flag.population, fits: f) else { continue }
                    func present(_ name: String) -> String? {
                        guard let s = condition.symptoms.first(where: { $0.name == name }) else { return nil }
                        guard s.variantStems.contains(where: { !$0.isEmpty && $0.allSatisfy(allStems.contains) }) else { return nil }
                        return s.name
                    }
                    let all = flag.all.map(present), any = flag.any.map(present)
                    guard all.allSatisfy({ $0 != nil }), flag.any.isEmpty || any.contains(where: { $0 != nil }) else { continue }
                    let words = (all + any).compactMap { $0 }
                    let clause = positive.first { c in words.contains { TextMatch.stems($0).allSatisfy(Set(TextMatch.stems(c)).contains) } } ?? positive.first ?? f.text
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
                      existing: [TriageEvidence]) -> [TriageEvidence] {
        let ids = Set(candidates.map(\.id))
        var hits: [TriageEvidence] = []
        for (e, entry) in model.flagEntries.enumerated() where ids.contains(model.profiles[entry.condition].id) {
            let profile = model.profiles[entry.condition]
            guard entry.symptom < profile.redFlags.count else { continue }
            let flag = profile.redFlags[entry.symptom]
            guard Self.population(flag.population, fits: f) else { continue }
            for (c, clause) in f.clauses.enumerated() where !clause.negated && c < clauseVectors.rows {
                var s: Float = 0
                for j in 0..<clauseVectors.cols { s += clauseVectors[c, j] * model.flags[e, j] }
                // A clause that only repeats some of the flag's words ("shivering" against
                // "shivering has stopped") lacks exactly the part that makes it a red flag, however
                // close the two sentences sit in embedding space.
                if s >= policy.similarFlagMinSimilarity, !existing.contains(where: { $0.flag == entry.phrase }),
                   !hits.contains(where: { $0.flag == entry.phrase }), !Self.saysOnlyPartOf(entry.phrase, clause: clause.text) {
                    hits.append(evidence(.similarFlag, flag, profile, clause: clause.text))
                }
            }
        }
        return hits
    }

    /// Words of suicide or self-harm phrased in ways no rule anticipated still reach the crisis
    /// conditions: one of them leading the ranking with a matched symptom is crisis evidence.
    func crisisCondition(_ f: Findings, ranked: [RankedCondition]) -> TriageEvidence? {
        guard let crisis = ranked.prefix(policy.crisisWithinTop).first(where: { policy.crisisConditionIDs.contains($0.profile.id) && !$0.matched.isEmpty })
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
        case "pregnant": return f.pregnant
        case "on-anticoagulants": return f.history.contains("on blood thinners")
        case "immunosuppressed": return f.history.contains("weakened immunity")
        default: return true
        }
    }

    /// True when every content word of the clause is among the phrase's, and some of the phrase's are missing.
    static func saysOnlyPartOf(_ phrase: String, clause: String) -> Bool {
        let p = Set(TextMatch.stems(phrase)), c = Set(TextMatch.stems(clause))
        return c.isSubset(of: p) && c.count < p.count
    }
}
