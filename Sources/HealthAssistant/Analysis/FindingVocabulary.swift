/// The wordings the library gives each finding, read from every condition's symptoms and their lay
/// variants. A file's `against: [fever]` names a finding that other files describe ("fever", lay
/// "high temperature", "burning up"); this turns the name into those wordings, matched the way
/// symptoms are (`SymptomLexicon`: every content stem of a wording in one clause).
///
/// A name resolves to the finding it is listed under most often, strictly more often than under any
/// other ("high temperature" is mostly a wording of fever). A wording then stands for that finding
/// when at least `minUses` symptoms list it under the finding, so one file's loose wording ("feel
/// hot and flushed" under fever) does not, and when the finding holds at least `minShare` of the
/// library's symptoms with a wording that holds all its words: a clause matching it then most likely
/// means that finding ("feeling hot" matches hot flushes and hot joints as often as fever, "short
/// of breath" is listed under wheezing but mostly means breathlessness). A name the library never
/// uses stays its own only wording.
struct FindingVocabulary {
    /// Symptoms that must list a wording under a finding before it stands for that finding.
    static let minUses = 2
    /// The least share of the symptoms whose wordings hold all of a wording's words that must be the finding's.
    static let minShare = 0.5

    /// Wording (stem key) → the finding (stem key of a symptom name) it is listed under most often.
    private var meaning: [String: String] = [:]
    /// Finding (stem key) → the wordings standing for it, as first written, most used first.
    private var wordings: [String: [String]] = [:]

    /// `names`: the names to be resolved (`finding(_:arguingAgainst:)`); only their findings' wordings are sorted out.
    init(profiles: [ConditionProfile], names: [String], minUses: Int = Self.minUses, minShare: Double = Self.minShare) {
        var uses: [String: [String: Int]] = [:]
        var written: [String: String] = [:]
        for p in profiles {
            for s in p.symptoms {
                let finding = Self.key(s.variants.first ?? s.name)
                guard !finding.isEmpty else { continue }
                var seen = Set<String>()
                for v in s.variants {
                    let k = Self.key(v)
                    guard !k.isEmpty, seen.insert(k).inserted else { continue }
                    uses[k, default: [:]][finding, default: 0] += 1
                    if written[k] == nil { written[k] = v }
                }
            }
        }
        // Which finding each symptom is, and every wording of every symptom by stem.
        let findingOf = profiles.map { $0.symptoms.map { Self.key($0.variants.first ?? $0.name) } }
        let lexicon = SymptomLexicon(profiles: profiles)
        func share(of finding: String, among stems: [String]) -> Double {
            var symptoms = Set<Int64>(), hits = 0
            for v in lexicon.variantsCovering(Set(stems)) {
                let variant = lexicon.variants[v]
                guard symptoms.insert(Int64(variant.profile) << 32 | Int64(variant.symptom)).inserted else { continue }
                if findingOf[Int(variant.profile)][Int(variant.symptom)] == finding { hits += 1 }
            }
            return symptoms.isEmpty ? 0 : Double(hits) / Double(symptoms.count)
        }
        var candidates: [String: [(key: String, uses: Int)]] = [:]
        for (k, findings) in uses {
            let top = findings.values.max() ?? 0
            let leaders = findings.filter { $0.value == top }
            guard leaders.count == 1, let finding = leaders.first?.key else { continue }
            meaning[k] = finding
            if top >= minUses { candidates[finding, default: []].append((k, top)) }
        }
        var byFinding: [String: [(key: String, uses: Int)]] = [:]
        for finding in Set(names.compactMap { meaning[Self.key($0)] }) {
            byFinding[finding] = candidates[finding]?.filter { share(of: finding, among: $0.key.split(separator: " ").map(String.init)) >= minShare }
        }
        // Sorted, so the same library always gives the same profiles (and the same stored bytes).
        wordings = byFinding.mapValues { list in
            list.sorted { $0.uses != $1.uses ? $0.uses > $1.uses : $0.key < $1.key }.compactMap { written[$0.key] }
        }
    }

    /// What matching compares: the content stems, in order.
    static func key(_ text: String) -> String { TextMatch.stems(text).joined(separator: " ") }

    /// The finding `name` as a symptom of its own: the name first (its label), then the wordings
    /// that stand for the finding it names, less any wording `profile` lists for its own symptoms
    /// (the file's own reading of those words wins).
    func finding(_ name: String, arguingAgainst profile: ConditionProfile) -> ConditionProfile.Symptom {
        let own = Set(profile.symptoms.flatMap { $0.variants.map(Self.key) })
        var keys: Set<String> = [Self.key(name)]
        var variants = [name]
        if let finding = meaning[Self.key(name)] {
            for w in wordings[finding] ?? [] where !own.contains(Self.key(w)) && keys.insert(Self.key(w)).inserted { variants.append(w) }
        }
        return ConditionProfile.Symptom(name: name, variants: variants, weight: "against", weightValue: 0)
    }
}
