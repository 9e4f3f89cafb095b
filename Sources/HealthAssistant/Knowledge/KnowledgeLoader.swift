import Foundation
import Yams

/// Reads `rules/` and refuses bad knowledge: unknown keys, duplicate ids, unknown levels, a pattern
/// that does not compile, a reference to a missing lexicon or history, a rule without cases. Every
/// error names the file, the rule and the field.
struct KnowledgeLoader {
    let directory: URL
    /// How paths are shown in errors: relative to the project (`rules/safety/emergency.yaml`).
    let displayPrefix: String
    /// Compile every pattern now (validation), or on first use (files already validated).
    let eager: Bool
    /// Parsed YAML trees by relative path: those read from `ParsedRulesCache` are used instead of
    /// parsing, and each file parsed here is added (for the caller to store).
    let trees: ParsedTrees

    init(directory: URL, eager: Bool = true, trees: ParsedTrees = ParsedTrees([:])) {
        self.directory = directory
        displayPrefix = directory.lastPathComponent
        self.eager = eager
        self.trees = trees
    }

    /// The trees one load reads and parses (used by that load alone, on one thread).
    final class ParsedTrees {
        var byPath: [String: Any]
        var parsedAny = false
        init(_ byPath: [String: Any]) { self.byPath = byPath }
    }

    static let ruleLevels: [String: TriageLevel] = ["emergency": .emergency, "urgent": .urgent]
    static let ruleKeys = ["id", "level", "flag", "shows", "crisis", "scope", "all", "requires", "requires_any", "vetoes",
                           "veto_overrides", "rationale", "source", "cases"]

    func load() throws -> ClinicalKnowledge {
        let lexicons = try readLexicons()
        let expand = LexiconExpander(lexicons: lexicons, eager: eager)
        var findings = try readFindingsLexicon(expand)
        findings.spellings = try readSpellings()
        let historyNames = Set(findings.historyNames)
        var rules: [SafetyRule] = []
        var ids: [String: String] = [:]
        for file in try safetyFiles() {
            for rule in try readRules(file, expand: expand, historyNames: historyNames) {
                if let other = ids[rule.id] {
                    throw KnowledgeError(file: rule.file, rule: rule.id, field: "id", message: "duplicate id (also in \(other))",
                                         fix: "give each rule its own kebab-case id")
                }
                ids[rule.id] = rule.file
                rules.append(rule)
            }
        }
        if rules.isEmpty {
            throw KnowledgeError(file: display("safety"), message: "no safety rules found", fix: "restore rules/safety/*.yaml from git")
        }
        let policy = try readPolicy(expand, historyNames: historyNames)
        let weights = try readWeights()
        let concepts = try readConcepts()
        if let unknown = policy.concepts.crisisWordIDs.subtracting(concepts.filter(\.crisis).map(\.id)).sorted().first {
            throw KnowledgeError(file: display("triage-policy.yaml"), message: "crisis_words names '\(unknown)', which is no crisis concept in concepts/",
                                 fix: "name a concept with crisis: true, or remove it from crisis_words.ids")
        }
        // A concept or a can't-miss condition gives way to the exception of rules that have one.
        func checkGivesWay(_ ruleIDs: [String], file: String, owner: String, field: String) throws {
            if let unknown = ruleIDs.first(where: { ids[$0] == nil }) {
                throw KnowledgeError(file: file, rule: owner, field: field, message: "'\(unknown)' is no safety rule", fix: "name a rule id from rules/safety/")
            }
            if let rule = ruleIDs.compactMap({ id in rules.first { $0.id == id } }).first(where: { $0.vetoes.isEmpty }) {
                throw KnowledgeError(file: file, rule: owner, field: field, message: "rule '\(rule.id)' has no vetoes to honour", fix: "name a rule with vetoes, or remove it")
            }
        }
        for c in concepts { try checkGivesWay(c.givesWayTo, file: c.file, owner: c.id, field: "gives_way_to") }
        for (condition, ruleIDs) in policy.cantMiss.givesWayTo.sorted(by: { $0.key < $1.key }) {
            try checkGivesWay(ruleIDs, file: display("triage-policy.yaml"), owner: condition, field: "cant_miss.gives_way_to")
        }
        return ClinicalKnowledge(directory: directory, rules: rules, lexicons: lexicons, findings: findings, policy: policy, weights: weights,
                                 concepts: concepts)
    }

    // MARK: files

    func display(_ relative: String) -> String { displayPrefix + "/" + relative }

    func yaml(_ relative: String) throws -> Any {
        if let tree = trees.byPath[relative] { return tree }
        let tree = try parseYAML(relative)
        trees.byPath[relative] = tree
        trees.parsedAny = true
        return tree
    }

    func parseYAML(_ relative: String) throws -> Any {
        let url = directory.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw KnowledgeError(file: display(relative), message: "missing or unreadable", fix: "restore it from git (`git checkout -- \(display(relative))`)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw KnowledgeError(file: display(relative), message: "not UTF-8 text", fix: "save it as UTF-8")
        }
        do {
            // Every scalar is read as text and typed by the field that holds it: YAML 1.1's guessing
            // (a bare `no` becoming false) cannot strike, and the loader skips the resolver's regexes.
            guard let value = try Yams.load(yaml: text, .basic) else {
                throw KnowledgeError(file: display(relative), message: "empty", fix: "restore it from git")
            }
            return value
        } catch let error as KnowledgeError {
            throw error
        } catch {
            throw KnowledgeError(file: display(relative), message: "invalid YAML (\("\(error)".replacingOccurrences(of: "\n", with: " ")))",
                                 fix: "correct the YAML syntax at the place named")
        }
    }

    func safetyFiles() throws -> [String] {
        let dir = directory.appendingPathComponent("safety")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else {
            throw KnowledgeError(file: display("safety"), message: "folder missing", fix: "restore rules/safety/ from git")
        }
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "safety/" + $0 }
    }

    // MARK: lexicons

    func readLexicons() throws -> [String: [String]] {
        let file = "lexicons.yaml"
        let map = try StrictMapping(try yaml(file), file: display(file), path: "")
        var out: [String: [String]] = [:]
        for key in map.values.keys {
            guard let first = key.first, first.isLowercaseASCIILetter, key.allSatisfy({ $0.isLowercaseASCIILetter || $0.isASCIIDigit || $0 == "_" }) else {
                throw map.error(key, "lexicon names are lower_snake_case", fix: "rename it")
            }
            let alternatives = try map.strings(key) ?? []
            if alternatives.isEmpty { throw map.error(key, "empty lexicon", fix: "list at least one phrase") }
            out[key] = alternatives
        }
        // Each lexicon must compile on its own, so an error points at the lexicon, not at a rule.
        if eager {
            let expand = LexiconExpander(lexicons: out, eager: true)
            for key in out.keys.sorted() { _ = try expand.compile(out[key]!, file: display(file), rule: nil, field: key) }
        }
        return out
    }

    func readFindingsLexicon(_ expand: LexiconExpander) throws -> FindingsLexicon {
        let nfile = "negation.yaml", ffile = "findings.yaml"
        let neg = try StrictMapping(try yaml(nfile), file: display(nfile), path: "")
        try neg.rejectUnknownKeys(["cues", "pseudo_negations", "findings_with_cue", "history_denial", "history_doubt", "pregnancy_denial", "reassurances",
                                   "reassurance_max_words", "abilities", "reassurance_breakers", "explicit_denial", "leading_only", "denial_subject", "narrow_scope_cues", "cue_fillers", "polarity", "inability_before"])
        let cues = try neg.strings("cues") ?? []
        if cues.isEmpty { throw neg.error("cues", "no negation cues", fix: "list the words that deny a symptom") }
        let cuePatterns = try cues.map { cue in
            (cue, try expand.compile([#"\b"# + NSRegularExpression.escapedPattern(for: cue) + #"\b"#], file: display(nfile), rule: nil, field: "cues"))
        }
        // Every list of cues elsewhere in the file names cues from `cues`.
        func knownCues(_ m: StrictMapping, _ key: String) throws -> Set<String> {
            let its = try m.strings(key) ?? []
            for c in its where !cues.contains(c) { throw m.error(key, "'\(c)' is not one of the cues", fix: "add it to cues or remove it here") }
            return Set(its)
        }
        var withCue: [(cues: Set<String>, after: CompiledPattern)] = []
        for (i, item) in (try neg.list("findings_with_cue") ?? []).enumerated() {
            let m = try StrictMapping(item, file: display(nfile), path: "findings_with_cue[\(i)]")
            try m.rejectUnknownKeys(["cues", "after"])
            withCue.append((try knownCues(m, "cues"), try expand.compile(try m.strings("after") ?? [], file: display(nfile), rule: nil, field: m.field("after"), anchored: true)))
        }
        let fin = try StrictMapping(try yaml(ffile), file: display(ffile), path: "")
        try fin.rejectUnknownKeys(["history", "sudden", "gradual", "severe", "pregnant", "pregnancy_weeks", "postpartum", "baby_is_patient", "measured_fever", "hypothesis", "reported", "restatements", "history_statement", "contrasts", "courtesy"])
        guard let historyMap = try fin.mapping("history") else { throw fin.error("history", "missing", fix: "restore it from git") }
        var history: [(name: String, pattern: CompiledPattern)] = []
        for name in historyMap.values.keys.sorted() {
            history.append((name, try expand.compile(try historyMap.strings(name) ?? [], file: display(ffile), rule: nil, field: "history." + name)))
        }
        func pattern(_ m: StrictMapping, _ key: String, _ file: String, anchored: Bool = false) throws -> CompiledPattern {
            guard let alts = try m.strings(key), !alts.isEmpty else { throw m.error(key, "missing", fix: "restore it from git") }
            return try expand.compile(alts, file: display(file), rule: nil, field: m.field(key), anchored: anchored)
        }
        var restatements: [(pattern: CompiledPattern, says: String, replaces: Bool)] = []
        for (i, item) in (try fin.list("restatements") ?? []).enumerated() {
            let m = try StrictMapping(item, file: display(ffile), path: "restatements[\(i)]")
            try m.rejectUnknownKeys(["says", "when", "replaces"])
            restatements.append((try pattern(m, "when", ffile), try m.requiredString("says"), try m.bool("replaces") ?? false))
        }
        guard let fever = try fin.mapping("measured_fever") else { throw fin.error("measured_fever", "missing", fix: "restore it from git") }
        try fever.rejectUnknownKeys(["at_least_c", "says", "normal_below_c", "reading_words"])
        let feverFrom = try fever.requiredNumber("at_least_c")
        guard (37.0...41.0).contains(feverFrom) else { throw fever.error("at_least_c", "\(feverFrom) °C is not a fever threshold", fix: "use a value from 37 to 41") }
        let normalBelow = try fever.requiredNumber("normal_below_c")
        guard (36.0...feverFrom).contains(normalBelow) else { throw fever.error("normal_below_c", "\(normalBelow) °C is not a normal temperature's limit", fix: "use a value from 36 to at_least_c") }
        guard let statement = try fin.mapping("history_statement") else { throw fin.error("history_statement", "missing", fix: "restore it from git") }
        try statement.rejectUnknownKeys(["terms", "words"])
        let statementTerms = Set(try statement.strings("terms") ?? [])
        if let unknown = statementTerms.first(where: { name in !history.contains { $0.name == name } }) {
            throw statement.error("terms", "unknown history '\(unknown)'", fix: "use a name from history: above")
        }
        guard let reported = try fin.mapping("reported") else { throw fin.error("reported", "missing", fix: "restore it from git") }
        try reported.rejectUnknownKeys(["says", "unless", "ahead"])
        guard let denial = try neg.mapping("explicit_denial") else { throw neg.error("explicit_denial", "missing", fix: "restore it from git") }
        try denial.rejectUnknownKeys(["before", "not_after"])
        guard let leading = try neg.mapping("leading_only") else { throw neg.error("leading_only", "missing", fix: "restore it from git") }
        try leading.rejectUnknownKeys(["cues", "before", "denies"])
        let leadingCues = try knownCues(leading, "cues")
        guard let subject = try neg.mapping("denial_subject") else { throw neg.error("denial_subject", "missing", fix: "restore it from git") }
        try subject.rejectUnknownKeys(["cues", "max_words"])
        let anyCue = try expand.compile(cues.map { #"\b"# + NSRegularExpression.escapedPattern(for: $0) + #"\b"# }, file: display(nfile), rule: nil, field: "cues")
        var polarity: AbilityPolarity?
        if let p = try neg.mapping("polarity") {
            try p.rejectUnknownKeys(["ability", "inability"])
            polarity = AbilityPolarity(ability: try pattern(p, "ability", nfile), inability: try pattern(p, "inability", nfile), negation: anyCue)
        }
        var scales: [(name: String, low: [String], high: [String])] = []
        if let c = try fin.mapping("contrasts") {
            for name in c.values.keys.sorted() {
                guard let scale = try c.mapping(name) else { throw c.error(name, "not a mapping", fix: "give it low: and high: lists of words") }
                try scale.rejectUnknownKeys(["low", "high"])
                let low = (try scale.strings("low") ?? []).map { $0.lowercased() }, high = (try scale.strings("high") ?? []).map { $0.lowercased() }
                if low.isEmpty || high.isEmpty { throw scale.error(low.isEmpty ? "low" : "high", "empty", fix: "list the words for each end of the scale") }
                if let both = Set(low).intersection(high).first { throw scale.error("high", "'\(both)' is at both ends", fix: "keep it at one end") }
                scales.append((name, low, high))
            }
            if scales.count > 32 { throw c.error(scales[32].name, "more than 32 scales", fix: "merge scales") }
        }
        return FindingsLexicon(
            negationCues: cuePatterns,
            anyNegationCue: anyCue,
            pseudoNegations: try neg.strings("pseudo_negations") ?? [],
            cueFillers: Set(try neg.strings("cue_fillers") ?? []),
            reassurances: Set(try neg.strings("reassurances") ?? []), reassuranceMaxWords: Int(try neg.number("reassurance_max_words") ?? 0),
            abilities: try pattern(neg, "abilities", nfile, anchored: true), polarity: polarity,
            contrasts: scales.isEmpty ? nil : FindingContrasts(scales: scales),
            courtesy: try fin.strings("courtesy") == nil ? nil : try pattern(fin, "courtesy", ffile, anchored: true),
            denialSubject: (try knownCues(subject, "cues"), Int(try subject.number("max_words") ?? 0)),
            narrowScopeCues: try knownCues(neg, "narrow_scope_cues"),
            reassuranceBreakers: Set(try neg.strings("reassurance_breakers") ?? []),
            findingsWithCue: withCue,
            historyDenial: try pattern(neg, "history_denial", nfile), historyDoubt: try pattern(neg, "history_doubt", nfile), pregnancyDenial: try pattern(neg, "pregnancy_denial", nfile),
            history: history, historyStatement: (statementTerms, Set(try statement.strings("words") ?? [])), sudden: try pattern(fin, "sudden", ffile), gradual: try pattern(fin, "gradual", ffile), severe: try pattern(fin, "severe", ffile),
            pregnant: try pattern(fin, "pregnant", ffile), pregnancyWeeks: try pattern(fin, "pregnancy_weeks", ffile), postpartum: try pattern(fin, "postpartum", ffile), babyIsPatient: try pattern(fin, "baby_is_patient", ffile), hypothesis: try pattern(fin, "hypothesis", ffile),
            reported: (try pattern(reported, "says", ffile), try pattern(reported, "unless", ffile), try reported.strings("ahead") == nil ? nil : try pattern(reported, "ahead", ffile)), restatements: restatements, measuredFever: (feverFrom, try fever.requiredString("says"), normalBelow, Set((try fever.strings("reading_words") ?? []).flatMap(TextMatch.stems))),
            explicitDenial: ExplicitDenial(before: try pattern(denial, "before", nfile), notAfter: try pattern(denial, "not_after", nfile, anchored: true)),
            leadingOnly: (leadingCues, try pattern(leading, "before", nfile, anchored: true), try pattern(leading, "denies", nfile, anchored: true)),
            inabilityBefore: try neg.strings("inability_before") == nil ? nil : try pattern(neg, "inability_before", nfile))
    }

    /// `spellings.yaml`: misspelt words and what they are read as. A misspelling is one word of
    /// letters (an apostrophe allowed); its reading is words; no reading is itself corrected.
    func readSpellings() throws -> [String: String] {
        let file = "spellings.yaml"
        let top = try StrictMapping(try yaml(file), file: display(file), path: "")
        try top.rejectUnknownKeys(["words"])
        guard let words = try top.mapping("words") else { throw top.error("words", "missing", fix: "put the misspellings under 'words:'") }
        var out: [String: String] = [:]
        for key in words.values.keys.sorted() {
            guard !key.isEmpty, key.allSatisfy({ $0.isLowercaseASCIILetter || $0 == "'" }) else {
                throw words.error(key, "a misspelling is one lower-case word", fix: "write it in lower case, letters only")
            }
            let reading = try words.requiredString(key)
            guard !reading.isEmpty, reading.allSatisfy({ $0.isLowercaseASCIILetter || $0 == "'" || $0 == " " }), reading != key else {
                throw words.error(key, "'\(reading)' is no reading of it", fix: "give the lower-case word(s) it stands for")
            }
            out[key] = reading
        }
        for (key, reading) in out.sorted(by: { $0.key < $1.key }) {
            if let chained = reading.split(separator: " ").first(where: { out[String($0)] != nil }) {
                throw words.error(key, "its reading '\(reading)' holds '\(chained)', itself a misspelling", fix: "give the corrected word")
            }
        }
        return out
    }

    // MARK: rules

    func readRules(_ relative: String, expand: LexiconExpander, historyNames: Set<String>) throws -> [SafetyRule] {
        let file = display(relative)
        let top = try StrictMapping(try yaml(relative), file: file, path: "")
        try top.rejectUnknownKeys(["rules"])
        guard let items = try top.list("rules") else { throw top.error("rules", "missing", fix: "put the rules under 'rules:'") }
        return try items.enumerated().map { i, item in
            let probe = (item as? [String: Any])?["id"] as? String
            let m = try StrictMapping(item, file: file, rule: probe ?? "#\(i + 1)", path: "")
            return try readRule(m, file: file, expand: expand, historyNames: historyNames)
        }
    }

    func readRule(_ m: StrictMapping, file: String, expand: LexiconExpander, historyNames: Set<String>) throws -> SafetyRule {
        try m.rejectUnknownKeys(Self.ruleKeys)
        let id = try m.requiredString("id")
        guard !id.split(separator: "-", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || !$0.allSatisfy { $0.isLowercaseASCIILetter || $0.isASCIIDigit } }) else {
            throw m.error("id", "'\(id)' is not kebab-case", fix: "use lower-case words joined by '-'")
        }
        let levelText = try m.requiredString("level")
        guard let level = Self.ruleLevels[levelText] else {
            throw m.error("level", "unknown level '\(levelText)'", fix: "use emergency or urgent")
        }
        let scopeText = try m.string("scope") ?? "positive"
        guard let scope = SafetyRule.Scope(rawValue: scopeText) else { throw m.error("scope", "unknown scope '\(scopeText)'", fix: "use positive, any-clause or unless-denied") }
        var patterns: [CompiledPattern] = []
        for (i, item) in (try m.list("all") ?? []).enumerated() {
            let alternatives: [String]
            if let s = item as? String { alternatives = [s] }
            else if let list = item as? [Any], list.allSatisfy({ $0 is String }), !list.isEmpty { alternatives = list.map { $0 as! String } }
            else { throw m.error("all[\(i)]", "expected a pattern or a list of alternatives", fix: "write a quoted pattern or a list of quoted patterns") }
            patterns.append(try expand.compile(alternatives, file: file, rule: id, field: "all[\(i)]"))
        }
        func condition(_ value: Any, field: String) throws -> RuleCondition {
            try RuleCondition.read(try StrictMapping(value, file: file, rule: id, path: field),
                                   compile: { f, alts in try expand.compile(alts, file: file, rule: id, field: f) }, historyNames: historyNames)
        }
        func conditions(_ key: String) throws -> [RuleCondition] {
            try (m.list(key) ?? []).enumerated().map { try condition($1, field: "\(key)[\($0)]") }
        }
        let requires = try m.mapping("requires").map { try condition($0.values, field: "requires") }
        let requiresAny = try conditions("requires_any"), vetoes = try conditions("vetoes"), overrides = try conditions("veto_overrides")
        if patterns.isEmpty, requires == nil, requiresAny.isEmpty {
            throw m.error("all", "the rule tests nothing", fix: "add patterns under 'all:' or a condition under 'requires:'")
        }
        if !overrides.isEmpty, vetoes.isEmpty { throw m.error("veto_overrides", "overrides without vetoes", fix: "remove it or add vetoes") }
        let casesMap = try m.mapping("cases")
        try casesMap?.rejectUnknownKeys(["fire", "quiet"])
        let fire = try casesMap?.strings("fire") ?? [], quiet = try casesMap?.strings("quiet") ?? []
        if fire.isEmpty { throw m.error("cases.fire", "no sentence it must fire on", fix: "add at least one sentence under cases: fire:") }
        if quiet.isEmpty { throw m.error("cases.quiet", "no sentence it must stay quiet on", fix: "add at least one near-miss sentence under cases: quiet:") }
        return SafetyRule(id: id, level: level, flag: try m.requiredString("flag"), shows: try m.string("shows"), crisis: try m.bool("crisis") ?? false,
                          scope: scope, all: patterns, requires: requires, requiresAny: requiresAny, vetoes: vetoes, vetoOverrides: overrides,
                          rationale: try m.requiredString("rationale"), source: try requiredURL(m, "source"),
                          cases: .init(fire: fire, quiet: quiet), file: file)
    }

    func requiredURL(_ m: StrictMapping, _ key: String) throws -> String {
        let s = try m.requiredString(key)
        guard s.hasPrefix("https://") || s.hasPrefix("http://") else { throw m.error(key, "'\(s)' is not a URL", fix: "cite a mainstream reference page") }
        return s
    }

    // MARK: concepts

    func readConcepts() throws -> [RedFlagConcept] {
        let dir = directory.appendingPathComponent("concepts")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        var out: [RedFlagConcept] = []
        var ids: [String: String] = [:]
        for name in names {
            let relative = "concepts/" + name, file = display(relative)
            let top = try StrictMapping(try yaml(relative), file: file, path: "")
            try top.rejectUnknownKeys(["concepts"])
            for (i, item) in (try top.list("concepts") ?? []).enumerated() {
                let probe = (item as? [String: Any])?["id"] as? String
                let m = try StrictMapping(item, file: file, rule: probe ?? "#\(i + 1)", path: "")
                try m.rejectUnknownKeys(["id", "level", "flag", "critical", "crisis", "source", "exemplars", "negatives", "gives_way_to"])
                let id = try m.requiredString("id")
                if let other = ids[id] { throw m.error("id", "duplicate concept id (also in \(other))", fix: "give each concept its own id") }
                ids[id] = file
                let levelText = try m.requiredString("level")
                guard let level = Self.ruleLevels[levelText] else { throw m.error("level", "unknown level '\(levelText)'", fix: "use emergency or urgent") }
                let exemplars = try m.strings("exemplars") ?? [], negatives = try m.strings("negatives") ?? []
                if exemplars.count < 20 { throw m.error("exemplars", "only \(exemplars.count) exemplars", fix: "give at least 20 lay wordings") }
                if negatives.count < 8 { throw m.error("negatives", "only \(negatives.count) near misses", fix: "give at least 8 sentences that must not count") }
                out.append(RedFlagConcept(id: id, level: level, flag: try m.requiredString("flag"), critical: try m.bool("critical") ?? false,
                                          crisis: try m.bool("crisis") ?? false, source: try requiredURL(m, "source"),
                                          exemplars: exemplars, negatives: negatives, givesWayTo: try m.strings("gives_way_to") ?? [], file: file))
            }
        }
        return out
    }

    // MARK: policy and weights

    func level(_ m: StrictMapping, _ key: String) throws -> TriageLevel {
        let s = try m.requiredString(key)
        guard let l = TriageLevel(rawValue: s) else { throw m.error(key, "unknown level '\(s)'", fix: "use emergency, urgent, routine or self-care") }
        return l
    }

    func readPolicy(_ expand: LexiconExpander, historyNames: Set<String>) throws -> TriagePolicyData {
        let file = "triage-policy.yaml"
        let m = try StrictMapping(try yaml(file), file: display(file), path: "")
        try m.rejectUnknownKeys(["differential", "condition_flags", "similar_flags", "crisis_conditions", "self_care_floor", "self_care_fit", "concepts", "crisis_words", "not_understood", "understood"])
        func section(_ key: String, _ keys: [String]) throws -> StrictMapping {
            guard let s = try m.mapping(key) else { throw m.error(key, "missing", fix: "restore it from git") }
            try s.rejectUnknownKeys(keys)
            return s
        }
        let diff = try section("differential", ["leading_emergency_without_sign", "leading_emergency_min_matched", "leading_emergency_min_key_coverage", "runner_up", "cant_miss"])
        guard let cm = try diff.mapping("cant_miss") else { throw diff.error("cant_miss", "missing", fix: "restore it from git") }
        try cm.rejectUnknownKeys(["within_top", "typical_key_coverage", "typical_min_matched", "some_key_coverage", "otherwise", "max_score_gap", "gives_way_to", "age_margin_years"])
        var givesWay: [String: [String]] = [:]
        if let gw = try cm.mapping("gives_way_to") {
            for key in gw.values.keys.sorted() { givesWay[key] = try gw.strings(key) ?? [] }
        }
        guard let ru = try diff.mapping("runner_up") else { throw diff.error("runner_up", "missing", fix: "restore it from git") }
        try ru.rejectUnknownKeys(["within_top", "score_ratio", "min_key_coverage", "at_most", "full_key_coverage"])
        let cf = try section("condition_flags", ["candidates", "min_content_words", "single_word_max_conditions", "lone_finding_needs_context", "lone_key_finding_stands"])
        let sf = try section("similar_flags", ["candidates", "min_similarity", "polarity_words", "persistence_words", "reversal_words"])
        let cc = try section("crisis_conditions", ["ids", "within_top", "concept_within_top", "concept_min_similarity"])
        let cp = try section("concepts", ["neighbours", "min_similarity", "margin", "whole_question"])
        let cw = try section("crisis_words", ["ids", "min_similarity", "margin", "min_words"])
        let understood = try section("understood", ["min_similarity", "one_word_min_similarity"])
        let fit = try section("self_care_fit", ["min_key_coverage", "reason"])
        var floors: [TriagePolicyData.Floor] = []
        for (i, item) in (try m.list("self_care_floor") ?? []).enumerated() {
            let f = try StrictMapping(item, file: display(file), path: "self_care_floor[\(i)]")
            try f.rejectUnknownKeys(["id", "when", "reason"])
            guard let when = f.values["when"] else { throw f.error("when", "missing", fix: "add the condition") }
            let cond = try RuleCondition.read(try StrictMapping(when, file: display(file), path: f.field("when")),
                                              compile: { fld, alts in try expand.compile(alts, file: display(file), rule: nil, field: fld) },
                                              historyNames: historyNames)
            floors.append(.init(id: try f.requiredString("id"), when: cond, reason: try f.requiredString("reason")))
        }
        return TriagePolicyData(
            leadingEmergencyWithoutSign: try level(diff, "leading_emergency_without_sign"),
            leadingEmergencyMinMatched: Int(try diff.requiredNumber("leading_emergency_min_matched")),
            leadingEmergencyMinKeyCoverage: try diff.number("leading_emergency_min_key_coverage") ?? 0,
            cantMiss: .init(withinTop: Int(try cm.requiredNumber("within_top")), typicalKeyCoverage: try cm.requiredNumber("typical_key_coverage"),
                            typicalMinMatched: Int(try cm.requiredNumber("typical_min_matched")), someKeyCoverage: try cm.requiredNumber("some_key_coverage"),
                            otherwise: try level(cm, "otherwise"), maxScoreGap: try cm.requiredNumber("max_score_gap"), givesWayTo: givesWay,
                            ageMarginYears: try cm.requiredNumber("age_margin_years")),
            runnerUp: .init(withinTop: Int(try ru.requiredNumber("within_top")), scoreRatio: try ru.requiredNumber("score_ratio"),
                            minKeyCoverage: try ru.requiredNumber("min_key_coverage"), atMost: try level(ru, "at_most"),
                            fullKeyCoverage: try ru.requiredNumber("full_key_coverage")),
            conditionFlagCandidates: Int(try cf.requiredNumber("candidates")), conditionFlagMinWords: Int(try cf.requiredNumber("min_content_words")),
            conditionFlagSingleWordMaxConditions: Int(try cf.requiredNumber("single_word_max_conditions")),
            loneFindingNeedsContext: try cf.bool("lone_finding_needs_context") ?? false, loneKeyFindingStands: try cf.bool("lone_key_finding_stands") ?? false,
            similarFlagCandidates: Int(try sf.requiredNumber("candidates")), similarFlagMinSimilarity: Float(try sf.requiredNumber("min_similarity")),
            similarFlagPolarityWords: Set(try sf.strings("polarity_words") ?? []), similarFlagPersistenceWords: Set(try sf.strings("persistence_words") ?? []),
            similarFlagReversalWords: Set(try sf.strings("reversal_words") ?? []),
            crisisConditionIDs: Set(try cc.strings("ids") ?? []), crisisWithinTop: Int(try cc.requiredNumber("within_top")),
            crisisConceptWithinTop: Int(try cc.requiredNumber("concept_within_top")),
            crisisConceptMinSimilarity: Float(try cc.requiredNumber("concept_min_similarity")), selfCareFloor: floors,
            concepts: .init(neighbours: Int(try cp.requiredNumber("neighbours")), minSimilarity: Float(try cp.requiredNumber("min_similarity")),
                            margin: Float(try cp.requiredNumber("margin")), wholeQuestion: try cp.bool("whole_question") ?? true,
                            crisisWordIDs: Set(try cw.strings("ids") ?? []), crisisMinSimilarity: Float(try cw.requiredNumber("min_similarity")),
                            crisisMargin: Float(try cw.requiredNumber("margin")), crisisMinWords: Int(try cw.number("min_words") ?? 1)),
            notUnderstood: try level(m, "not_understood"), understoodMinSimilarity: try understood.requiredNumber("min_similarity"),
            understoodOneWordMinSimilarity: try understood.requiredNumber("one_word_min_similarity"),
            selfCareMinKeyCoverage: try fit.requiredNumber("min_key_coverage"), selfCareWeakFitReason: try fit.requiredString("reason"))
    }

    func readWeights() throws -> AnalysisWeights {
        let file = "weights.yaml"
        let m = try StrictMapping(try yaml(file), file: display(file), path: "")
        try m.rejectUnknownKeys(["symptom_weights", "priors", "lite", "complete", "likelihood_temperature"])
        func section(_ key: String, _ keys: [String]) throws -> StrictMapping {
            guard let s = try m.mapping(key) else { throw m.error(key, "missing", fix: "restore it from git") }
            try s.rejectUnknownKeys(keys)
            for k in keys where !s.has(k) { throw s.error(k, "missing", fix: "add '\(k):' with a number") }
            return s
        }
        let sw = try section("symptom_weights", ["key", "typical", "occasional"])
        let p = try section("priors", ["common", "rare", "age_mismatch", "infant_age_mismatch", "sex_mismatch", "pregnancy_match",
                                       "pregnancy_condition_not_pregnant", "course_mismatch", "course_hours_max_days", "course_days_max_days", "course_weeks_max_days",
                                       "onset_sudden_max_days", "onset_hours_max_days", "onset_days_max_days", "against_finding"])
        // A negative penalty would lift a condition for the very findings that argue against it.
        guard try p.requiredNumber("against_finding") >= 0 else {
            throw p.error("against_finding", "must not be negative", fix: "write 0 to turn it off, or a positive penalty")
        }
        let l = try section("lite", ["retrieval", "symptoms", "key_coverage", "denied"])
        let c = try section("complete", CompleteAnalyzer.Weights.names)
        var complete: [String: Double] = [:]
        for k in CompleteAnalyzer.Weights.names { complete[k] = try c.requiredNumber(k) }
        return AnalysisWeights(
            symptomWeights: ["key": try sw.requiredNumber("key"), "typical": try sw.requiredNumber("typical"), "occasional": try sw.requiredNumber("occasional")],
            priors: .init(common: try p.requiredNumber("common"), rare: try p.requiredNumber("rare"), ageMismatch: try p.requiredNumber("age_mismatch"),
                          infantAgeMismatch: try p.requiredNumber("infant_age_mismatch"), sexMismatch: try p.requiredNumber("sex_mismatch"),
                          pregnancyMatch: try p.requiredNumber("pregnancy_match"),
                          pregnancyConditionNotPregnant: try p.requiredNumber("pregnancy_condition_not_pregnant"),
                          courseMismatch: try p.requiredNumber("course_mismatch"),
                          courseMaxDays: ["hours": try p.requiredNumber("course_hours_max_days"), "days": try p.requiredNumber("course_days_max_days"),
                                          "weeks": try p.requiredNumber("course_weeks_max_days")],
                          onsetMaxDays: ["sudden": try p.requiredNumber("onset_sudden_max_days"), "hours": try p.requiredNumber("onset_hours_max_days"),
                                         "days": try p.requiredNumber("onset_days_max_days")],
                          againstFinding: try p.requiredNumber("against_finding")),
            lite: .init(retrieval: try l.requiredNumber("retrieval"), symptoms: try l.requiredNumber("symptoms"),
                        keyCoverage: try l.requiredNumber("key_coverage"), denied: try l.requiredNumber("denied")),
            complete: CompleteAnalyzer.Weights(values: complete),
            likelihoodTemperature: try m.requiredNumber("likelihood_temperature"))
    }
}

/// Expands `{{lexicon}}` references and compiles patterns, naming the place of any error.
struct LexiconExpander {
    let lexicons: [String: [String]]
    /// Compile now (and report a bad pattern here), or leave it to the first match.
    var eager = true

    func expand(_ pattern: String, file: String, rule: String?, field: String, depth: Int = 0) throws -> String {
        guard pattern.utf8.contains(UInt8(ascii: "{")) else { return pattern }
        var out = "", rest = Substring(pattern)
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                throw KnowledgeError(file: file, rule: rule, field: field, message: "unclosed '{{'", fix: "write {{lexicon_name}}")
            }
            let name = String(rest[open.upperBound..<close.lowerBound])
            guard let alternatives = lexicons[name] else {
                throw KnowledgeError(file: file, rule: rule, field: field, message: "unknown lexicon '\(name)'",
                                     fix: "use one of \(lexicons.keys.sorted().joined(separator: ", ")) or add it to rules/lexicons.yaml")
            }
            guard depth < 4 else { throw KnowledgeError(file: file, rule: rule, field: field, message: "lexicons refer to each other in a loop", fix: "break the loop") }
            out += "(?:" + (try expand(alternatives.joined(separator: "|"), file: file, rule: rule, field: field, depth: depth + 1)) + ")"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    func compile(_ alternatives: [String], file: String, rule: String?, field: String, anchored: Bool = false) throws -> CompiledPattern {
        guard !alternatives.isEmpty, !alternatives.contains(where: { $0.isEmpty }) else {
            throw KnowledgeError(file: file, rule: rule, field: field, message: "empty pattern", fix: "write the words to look for")
        }
        let joined = try alternatives.map { try expand($0, file: file, rule: rule, field: field) }.joined(separator: "|")
        guard eager else { return CompiledPattern(lazy: joined, anchored: anchored) }
        do {
            return try CompiledPattern(joined, anchored: anchored)
        } catch {
            throw KnowledgeError(file: file, rule: rule, field: field, message: "pattern does not compile: \(joined.prefix(120))",
                                 fix: "check its brackets and escapes (ICU regular-expression syntax)")
        }
    }
}

extension Character {
    var isLowercaseASCIILetter: Bool { ("a"..."z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
