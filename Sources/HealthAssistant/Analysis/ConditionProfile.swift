import Foundation
import Store

/// A condition as the analysers see it: its front matter, parsed once from the index.
public struct ConditionProfile: Sendable, Codable, Equatable {
    public struct Symptom: Sendable, Codable, Equatable {
        public var name: String
        public var variants: [String]
        public var weight: String
        /// Content-word stems of each variant, computed once (lexical matching runs per question).
        public var variantStems: [[String]]

        /// How much it counts (`symptom_weights` in rules/weights.yaml).
        public var weightValue: Double
        /// A warning sign the file lists only for its red flags: an occasional finding of a condition
        /// that is not itself an emergency, named by one of its flags ("fever" in neck pain, "sudden
        /// severe headache" in migraine). It says something else may be going on, so it raises the
        /// flag but is no evidence for the condition: ranking leaves it out.
        public var flagOnly = false

        enum CodingKeys: String, CodingKey { case name, variants, weight, weightValue, flagOnly }

        public init(name: String, variants: [String], weight: String, weightValue: Double) {
            self.name = name; self.variants = variants; self.weight = weight; self.weightValue = weightValue
            variantStems = variants.map(TextMatch.stems)
        }

        /// With the stems already known (read back from `ConditionProfileArchive`).
        init(name: String, variants: [String], weight: String, variantStems: [[String]], weightValue: Double, flagOnly: Bool) {
            self.name = name; self.variants = variants; self.weight = weight; self.variantStems = variantStems
            self.weightValue = weightValue; self.flagOnly = flagOnly
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(name: try c.decode(String.self, forKey: .name), variants: try c.decode([String].self, forKey: .variants),
                      weight: try c.decode(String.self, forKey: .weight), weightValue: try c.decode(Double.self, forKey: .weightValue))
            flagOnly = try c.decodeIfPresent(Bool.self, forKey: .flagOnly) ?? false
        }
        /// The lay name shown in answers ("stiff neck" rather than the whole "a / b" string).
        public var label: String { variants.first ?? name }
    }

    public var id: String
    public var name: String
    public var aliases: [String]
    public var triage: TriageLevel
    public var prevalence: String
    public var ages: [String]
    public var sex: String
    public var symptoms: [Symptom]
    public var redFlags: [RedFlag]
    public var path: String
    public var system: String
    /// Missing it can kill or maim within hours to days (schema v2 `cant_miss`).
    public var cantMiss = false
    /// Its usual course (schema v2 `duration`: hours, days, weeks, months, chronic), if stated.
    public var course: String?
    /// How fast it comes on (schema v2 `onset`: sudden, hours, days, weeks, months), if stated.
    public var onset: String?
    /// The ages it is seen at, in years (v2's numeric `age: {min, max}`; nil for v1's age groups).
    public var ageRange: ClosedRange<Double>?
    /// Findings whose presence argues against it (schema v2 `against`: hay fever has no fever), each
    /// with the wordings the library uses for that finding elsewhere (`FindingVocabulary`), so a
    /// clause saying "high temperature" reports "fever". Ranking reads them (`againstCounts`);
    /// triage never does.
    public var against: [Symptom] = []

    /// A warning sign of this condition, with its own level. Schema v1 flags are free text at the
    /// file's level (emergency in an emergency file, else urgent) and fire when one clause holds
    /// every content word; v2 flags name the findings they need (`all` / `any`, symptom names of
    /// the same file) and the population they apply to.
    public struct RedFlag: Sendable, Codable, Equatable {
        public var flag: String
        public var level: TriageLevel
        public var all: [String] = []
        public var any: [String] = []
        public var population: String?
        /// Whether it names its findings (v2) rather than being matched by its words (v1).
        public var isStructured: Bool { !all.isEmpty || !any.isEmpty }
    }

    /// The profiles of the store's current corpus: read back from the index when it holds them for
    /// this corpus and these weights, else derived from the front matter (and stored for next time).
    public static func load(from store: SQLiteStore, symptomWeights: [String: Double]) throws -> [ConditionProfile] {
        try loadWithLexicon(from: store, symptomWeights: symptomWeights).profiles
    }

    /// The profiles, their `SymptomLexicon` and the lexicon of their `against` findings, all from
    /// the stored archive when it is current.
    static func loadWithLexicon(from store: SQLiteStore, symptomWeights: [String: Double]) throws -> ConditionProfileArchive.Archive {
        let corpus = try store.corpusFingerprint()
        let fingerprint = ConditionProfileArchive.fingerprint(corpus: corpus, symptomWeights: symptomWeights)
        if let stored = ConditionProfileArchive.loadWithLexicon(from: store, fingerprint: fingerprint) { return stored }
        let (rows, readFrom) = try store.documentsWithFingerprint(kind: "condition")
        let profiles = derive(from: rows, symptomWeights: symptomWeights)
        let lexicon = SymptomLexicon(profiles: profiles), againstLexicon = SymptomLexicon(profiles: profiles, findings: \.against)
        let names = ConditionNames(profiles)
        // Stored only if derived from the corpus the fingerprint names (an index run may have changed
        // it in between); a read-only index still answers, deriving the profiles each time.
        if readFrom == corpus {
            try? ConditionProfileArchive.save(profiles, lexicon: lexicon, againstLexicon: againstLexicon, names: names, to: store, fingerprint: fingerprint)
        }
        return (profiles, lexicon, againstLexicon, names)
    }

    /// Parses each condition's front matter (JSON in the index) into a profile.
    static func derive(from rows: [SQLiteStore.DocumentRow], symptomWeights: [String: Double]) -> [ConditionProfile] {
        var againstNames: [[String]] = []
        var profiles = rows.compactMap { row -> ConditionProfile? in
            guard let json = try? JSONSerialization.jsonObject(with: Data(row.frontMatterJSON.utf8)) as? [String: Any] else { return nil }
            func list(_ key: String) -> [String] { (json[key] as? [Any] ?? []).map { "\($0)" } }
            let symptoms = (json["symptoms"] as? [Any] ?? []).compactMap { item -> Symptom? in
                guard let d = item as? [String: Any], let name = d["name"] as? String else { return nil }
                let weight = d["weight"] as? String ?? "typical"
                // v2 lists lay wordings apart; v1 packs them into the name ("fever / high temperature").
                let variants = (d["lay"] as? [Any]).map { [name] + $0.map { "\($0)" } } ?? TextMatch.variants(name)
                return Symptom(name: name, variants: variants, weight: weight, weightValue: symptomWeights[weight] ?? symptomWeights["typical"] ?? 0)
            }
            let triage = TriageLevel(rawValue: json["triage"] as? String ?? "") ?? .routine
            let flags = (json["red_flags"] as? [Any] ?? []).compactMap { item -> RedFlag? in
                if let text = item as? String { return RedFlag(flag: text, level: triage == .emergency ? .emergency : .urgent) }
                guard let d = item as? [String: Any], let text = d["flag"] as? String else { return nil }
                func names(_ key: String) -> [String] { (d[key] as? [Any] ?? []).map { "\($0)" } }
                return RedFlag(flag: text, level: TriageLevel(rawValue: d["level"] as? String ?? "") ?? .urgent, all: names("all"), any: names("any"),
                               population: d["population"] as? String)
            }
            var profile = ConditionProfile(
                id: json["id"] as? String ?? URL(fileURLWithPath: row.path).deletingPathExtension().lastPathComponent,
                name: json["name"] as? String ?? row.title, aliases: list("aliases"),
                triage: triage,
                prevalence: json["prevalence"] as? String ?? "uncommon", ages: ageBands(json["age"]), sex: json["sex"] as? String ?? "any",
                symptoms: symptoms, redFlags: flags, path: row.path, system: json["system"] as? String ?? "")
            profile.cantMiss = json["cant_miss"] as? Bool ?? false
            if triage != .emergency {
                let named = Set(flags.flatMap { $0.all + $0.any })
                for i in profile.symptoms.indices where profile.symptoms[i].weight == "occasional" && named.contains(profile.symptoms[i].name) {
                    profile.symptoms[i].flagOnly = true
                }
            }
            profile.course = json["duration"] as? String
            profile.onset = json["onset"] as? String
            profile.ageRange = ageRange(json["age"])
            againstNames.append(list("against"))
            return profile
        }
        // `against` names findings in words the library uses for symptoms elsewhere ("fever"): each
        // is resolved against the whole library's wordings, so every profile is read first.
        let vocabulary = FindingVocabulary(profiles: profiles, names: againstNames.flatMap { $0 })
        for i in profiles.indices { profiles[i].against = againstNames[i].map { vocabulary.finding($0, arguingAgainst: profiles[i]) } }
        return profiles
    }

    /// v2's numeric `age: {min, max}` in years, as written (min 0 and max 120 when left out); nil
    /// for v1's list of age groups. Both the range and the age groups are read from it.
    static func ageBounds(_ value: Any?) -> (lo: Double, hi: Double)? {
        guard let range = value as? [String: Any] else { return nil }
        func number(_ k: String) -> Double? { (range[k] as? Double) ?? (range[k] as? Int).map(Double.init) }
        return (number("min") ?? 0, number("max") ?? 120)
    }

    /// v2's numeric age range in years; nil for v1's list of age groups.
    static func ageRange(_ value: Any?) -> ClosedRange<Double>? {
        ageBounds(value).flatMap { $0.lo <= $0.hi ? $0.lo...$0.hi : nil }
    }

    /// The age groups a condition is seen in: v1 lists them, v2 gives a numeric range in years.
    static func ageBands(_ value: Any?) -> [String] {
        if let list = value as? [Any] { return list.map { "\($0)" } }
        guard let (lo, hi) = ageBounds(value) else { return ["any"] }
        if lo <= 0, hi >= 90 { return ["any"] }
        let bands: [(String, Double, Double)] = [("infant", 0, 1), ("child", 1, 13), ("adolescent", 13, 18), ("adult", 18, 65), ("older-adult", 65, 200)]
        return bands.filter { lo < $0.2 && hi >= $0.1 }.map(\.0)
    }

    /// Prior from prevalence and fit with age and sex (log-odds-like additive terms; the values
    /// are `priors` in rules/weights.yaml).
    /// `reportedAgainst`: how many of its `against` findings the person reports (see
    /// `AnalysisInput.reportedAgainst`, which counts none for a condition that `againstCounts` spares).
    func prior(for findings: Findings, _ w: AnalysisWeights.Priors, reportedAgainst: Int = 0) -> Double {
        var p = prevalence == "common" ? w.common : prevalence == "rare" ? w.rare : 0
        if let group = findings.ageGroup, !ages.contains("any"), !ages.isEmpty, !ages.contains(group) {
            // Neighbouring groups are a mild mismatch; "adult" condition in a child is a stronger one.
            p -= (group == "infant" || ages == ["infant"]) ? w.infantAgeMismatch : w.ageMismatch
        }
        if let s = findings.sex, sex != "any", sex != s.rawValue { p -= w.sexMismatch }
        // In the weeks after a birth, pregnancy's conditions (pre-eclampsia, bleeding, infection) still apply.
        let pregnancyApplies = findings.pregnant || findings.postpartum
        if pregnancyApplies, sex == "female", path.contains("pregnan") || system == "pregnancy" { p += w.pregnancyMatch }
        if !pregnancyApplies, system == "pregnancy" { p -= w.pregnancyConditionNotPregnant }
        if courseArguesAgainst(findings, w) { p -= w.courseMismatch }
        p -= w.againstFinding * Double(reportedAgainst)
        return p
    }

    /// Whether a reported `against` finding lowers it in the ranking: never for an emergency or
    /// can't-miss condition, which a finding that usually argues against it must not push down
    /// (epiglottitis with a barking cough is still epiglottitis until ruled out), so the penalty
    /// cannot move one out of the places triage reads. Triage itself never reads `against`: it
    /// neither contests a condition (`TriageEngine.Candidate.uncontested`) nor lowers its level.
    public var againstCounts: Bool { !cantMiss && triage != .emergency && !against.isEmpty }

    /// Whether the person's course argues against this condition in the ranking: they have had the
    /// symptoms far longer than it lasts, or say the trouble crept up slowly over longer than it
    /// takes to come on (numbness creeping up over months is unlikely to be Guillain-Barré). Only
    /// the first contests a condition in triage: a slow creep can still be an emergency.
    public func courseArguesAgainst(_ findings: Findings, _ w: AnalysisWeights.Priors) -> Bool {
        outlasts(findings, w) || comesOnFaster(findings, w)
    }

    func comesOnFaster(_ findings: Findings, _ w: AnalysisWeights.Priors) -> Bool {
        guard findings.gradualOnset, let onset, let limit = w.onsetMaxDays[onset], let days = findings.lastedDays ?? findings.durationDays else { return false }
        return days > limit
    }

    /// Whether the person's age lies more than `margin` years outside the ages it is seen at
    /// (a hip fracture's picture in a 31-year-old after a gym session is his thighs, not his hip).
    public func outOfAge(_ findings: Findings, margin: Double) -> Bool {
        guard let range = ageRange, let age = findings.ageYears else { return false }
        return age < range.lowerBound - margin || age > range.upperBound + margin
    }

    /// Whether the person has had the symptoms far longer than this condition usually lasts.
    public func outlasts(_ findings: Findings, _ w: AnalysisWeights.Priors) -> Bool {
        guard let days = findings.lastedDays, let course, let limit = w.courseMaxDays[course] else { return false }
        return days > limit
    }
}
