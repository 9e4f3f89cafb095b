import Foundation

/// `health corpus check`: the rules that keep the library sound (schema v2, corpus/SCHEMA.md) — unique ids, file name =
/// id, known triage/weight values, enough symptoms with a key one, red flags for every emergency,
/// no alias claimed twice, sources, no 12-word run shared by two files — plus a coverage table by
/// body system, triage and age.
public struct CorpusValidator: Sendable {
    public static let triageLevels: Set<String> = ["emergency", "urgent", "routine", "self-care"]
    public static let weights: Set<String> = ["key", "typical", "occasional"]
    public static let prevalences: Set<String> = ["common", "uncommon", "rare"]
    public static let ages: Set<String> = ["any", "infant", "child", "adolescent", "adult", "older-adult"]
    public static let sexes: Set<String> = ["any", "female", "male"]
    public static let conditionSections = ["Overview", "Symptoms", "When to get help", "Self-care", "Causes and risk factors"]
    public static let onsets: Set<String> = ["sudden", "hours", "days", "weeks", "months"]
    public static let durations: Set<String> = ["hours", "days", "weeks", "months", "chronic"]
    public static let populations: Set<String> = ["infant-under-3-months", "child", "older-adult", "pregnant", "on-anticoagulants", "immunosuppressed"]
    /// Schema v2 (corpus/SCHEMA.md): every key a condition file may have.
    public static let conditionKeys: Set<String> = ["schema", "id", "name", "system", "aliases", "icd10", "triage", "cant_miss", "prevalence", "age", "sex",
                                                    "onset", "duration", "symptoms", "against", "red_flags", "risk_factors", "sources"]

    public struct Issue: Sendable, CustomStringConvertible {
        public var file: String
        public var message: String
        public var description: String { "\(file): \(message)" }
    }

    public struct Report: Sendable {
        public var errors: [Issue] = []
        public var conditions = 0
        public var topics = 0
        public var bySystem: [String: Int] = [:]
        public var byTriage: [String: Int] = [:]
        public var byAge: [String: Int] = [:]
        /// File pairs sharing a 12-word run (each is also an error).
        public var repeats: [RepeatedTextFinder.Repeat] = []
    }

    public init() {}

    public func check(corpus: URL) -> Report {
        var report = Report()
        let fm = FileManager.default
        let conditionDir = corpus.appendingPathComponent("conditions"), topicDir = corpus.appendingPathComponent("topics")
        let conditionFiles = ((try? fm.contentsOfDirectory(atPath: conditionDir.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        let topicFiles = ((try? fm.contentsOfDirectory(atPath: topicDir.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        if conditionFiles.isEmpty { report.errors.append(Issue(file: conditionDir.path, message: "no condition files")) }
        var ids: [String: String] = [:]
        var aliasOwners: [String: String] = [:]
        var names: [String: String] = [:]
        var prose: [RepeatedTextFinder.File] = []
        for file in conditionFiles {
            let path = "conditions/" + file
            func error(_ m: String) { report.errors.append(Issue(file: path, message: m)) }
            guard let text = try? String(contentsOf: conditionDir.appendingPathComponent(file), encoding: .utf8) else {
                error("unreadable or not UTF-8"); continue
            }
            let doc: MarkdownDocument
            do { doc = try MarkdownDocument(text: text, fallbackTitle: file) } catch { report.errors.append(Issue(file: path, message: "\(error)")); continue }
            report.conditions += 1
            prose.append(RepeatedTextFinder.File(path: path, segments: RepeatedTextFinder.prose(of: doc)))
            let f = doc.frontMatter
            let id = f["id"] as? String ?? ""
            if id.isEmpty { error("missing id") }
            if id + ".md" != file { error("id '\(id)' does not match the file name") }
            if id.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) == nil { error("id '\(id)' is not kebab-case") }
            if let other = ids[id] { error("id '\(id)' also used by \(other)") } else { ids[id] = path }
            let name = f["name"] as? String ?? ""
            if name.isEmpty { error("missing name") }
            if let other = names[name.lowercased()] { error("name '\(name)' also used by \(other)") } else { names[name.lowercased()] = path }
            let triage = f["triage"] as? String ?? ""
            if !Self.triageLevels.contains(triage) { error("triage '\(triage)' is not one of \(Self.triageLevels.sorted())") }
            report.byTriage[triage, default: 0] += 1
            let prevalence = f["prevalence"] as? String ?? ""
            if !Self.prevalences.contains(prevalence) { error("prevalence '\(prevalence)' is not one of \(Self.prevalences.sorted())") }
            // Schema v2 (corpus/SCHEMA.md) is checked in full; a v1 file (no `schema:`) by the v1 rules,
            // while the corpus moves over.
            if f["schema"] != nil {
                for key in f.keys.sorted() where !Self.conditionKeys.contains(key) { error("unknown key '\(key)'") }
                if "\(f["schema"] ?? "")" != "2" { error("schema must be 2 (see corpus/SCHEMA.md)") }
                if let cm = f["cant_miss"], !(cm is Bool) { error("cant_miss must be true or false") }
                let ages = ConditionProfile.ageBands(f["age"])
                if let range = f["age"] as? [String: Any] {
                    func number(_ k: String) -> Double? { (range[k] as? Double) ?? (range[k] as? Int).map(Double.init) }
                    for k in range.keys where !["min", "max", "peak"].contains(k) { error("age has unknown key '\(k)'") }
                    if let lo = number("min"), let hi = number("max") { if lo < 0 || hi > 125 || lo > hi { error("age range \(lo)–\(hi) is not valid") } }
                    else { error("age needs numeric min and max") }
                } else { error("age must be {min, max, peak} in years") }
                for a in ages { report.byAge[a, default: 0] += 1 }
                let sex = f["sex"] as? String ?? ""
                if !Self.sexes.contains(sex) { error("sex '\(sex)' is not one of \(Self.sexes.sorted())") }
                for (key, allowed) in [("onset", Self.onsets), ("duration", Self.durations)] {
                    let v = f[key] as? String ?? ""
                    if !allowed.contains(v) { error("\(key) '\(v)' is not one of \(allowed.sorted())") }
                }
                let icd = f["icd10"] as? String ?? ""
                if icd.range(of: "^[A-Z][0-9][0-9A-Z](\\.[0-9A-Z]{1,2})?$", options: .regularExpression) == nil { error("icd10 '\(icd)' is not a WHO ICD-10 code (A00 or A00.0)") }
                report.bySystem[(f["system"] as? String) ?? "unspecified", default: 0] += 1
                let symptoms = f["symptoms"] as? [Any] ?? []
                var keys = 0
                var symptomNames = Set<String>()
                for (i, s) in symptoms.enumerated() {
                    guard let entry = s as? [String: Any], let sname = entry["name"] as? String, !sname.isEmpty else {
                        error("symptom \(i + 1) lacks a name"); continue
                    }
                    symptomNames.insert(sname)
                    for k in entry.keys where !["name", "weight", "lay"].contains(k) { error("symptom '\(sname)' has unknown key '\(k)'") }
                    if sname.contains(" / ") { error("symptom '\(sname)' packs several findings: one finding per entry, wordings under lay:") }
                    let w = entry["weight"] as? String ?? ""
                    if !Self.weights.contains(w) { error("symptom '\(sname)' has weight '\(w)', not key/typical/occasional") }
                    if w == "key" {
                        keys += 1
                        let lay = (entry["lay"] as? [Any] ?? []).count
                        if (triage == "emergency" || f["cant_miss"] as? Bool == true) && lay < 3 {
                            error("key symptom '\(sname)' of an emergency or can't-miss condition has \(lay) lay wordings (need 3)")
                        }
                    }
                }
                if symptoms.count < 3 { error("only \(symptoms.count) symptoms (need at least 3)") }
                if keys == 0 { error("no symptom has weight key") }
                if f["red_flags"] == nil { error("missing red_flags") }
                var emergencyFlags = 0
                for (i, item) in (f["red_flags"] as? [Any] ?? []).enumerated() {
                    guard let flag = item as? [String: Any], let text = flag["flag"] as? String, !text.isEmpty else { error("red flag \(i + 1) must be a mapping with flag:"); continue }
                    for k in flag.keys where !["flag", "level", "all", "any", "population"].contains(k) { error("red flag '\(text)' has unknown key '\(k)'") }
                    let level = flag["level"] as? String ?? ""
                    if !["emergency", "urgent"].contains(level) { error("red flag '\(text)' has level '\(level)', not emergency/urgent") }
                    if level == "emergency" { emergencyFlags += 1 }
                    let names = ((flag["all"] as? [Any] ?? []) + (flag["any"] as? [Any] ?? [])).map { "\($0)" }
                    if names.isEmpty { error("red flag '\(text)' names no findings (all: / any:)") }
                    for n in names where !symptomNames.contains(n) { error("red flag '\(text)' needs '\(n)', which is not a symptom of this file") }
                    if let pop = flag["population"] as? String, !Self.populations.contains(pop) { error("red flag '\(text)' has unknown population '\(pop)'") }
                }
                if triage == "emergency" && emergencyFlags == 0 { error("emergency condition without an emergency-level red flag") }
            } else {
                let ages = (f["age"] as? [Any] ?? []).map { "\($0)" }
                if ages.isEmpty || !ages.allSatisfy(Self.ages.contains) { error("age \(ages) must be a list from \(Self.ages.sorted())") }
                for a in ages { report.byAge[a, default: 0] += 1 }
                let sex = f["sex"] as? String ?? ""
                if !Self.sexes.contains(sex) { error("sex '\(sex)' is not one of \(Self.sexes.sorted())") }
                if (f["icd10"] as? String ?? "").isEmpty { error("missing icd10") }
                report.bySystem[(f["system"] as? String) ?? "unspecified", default: 0] += 1
                let symptoms = f["symptoms"] as? [Any] ?? []
                var keys = 0
                for (i, s) in symptoms.enumerated() {
                    guard let entry = s as? [String: Any], let sname = entry["name"] as? String, !sname.isEmpty else {
                        error("symptom \(i + 1) lacks a name"); continue
                    }
                    let w = entry["weight"] as? String ?? ""
                    if !Self.weights.contains(w) { error("symptom '\(sname)' has weight '\(w)', not key/typical/occasional") }
                    if w == "key" { keys += 1 }
                }
                if symptoms.count < 3 { error("only \(symptoms.count) symptoms (need at least 3)") }
                if keys == 0 { error("no symptom has weight key") }
                let flags = f["red_flags"] as? [Any] ?? []
                if f["red_flags"] == nil { error("missing red_flags") }
                if triage == "emergency" && flags.isEmpty { error("emergency condition without red flags") }
            }
            let sources = (f["sources"] as? [Any] ?? []).map { "\($0)" }
            if sources.isEmpty { error("no sources") }
            for s in sources where !s.hasPrefix("http") { error("source '\(s)' is not a URL") }
            if f["risk_factors"] == nil { error("missing risk_factors") }
            for alias in (f["aliases"] as? [Any] ?? []).map({ "\($0)".lowercased() }) {
                if let owner = aliasOwners[alias], owner != path { error("alias '\(alias)' is also claimed by \(owner)") } else { aliasOwners[alias] = path }
            }
            let headings = Set(doc.sections.compactMap { $0.headingPath.count >= 2 ? $0.headingPath[1] : nil })
            for section in Self.conditionSections where !headings.contains(section) { error("missing section '## \(section)'") }
        }
        // An alias must not be another condition's name either.
        for (alias, owner) in aliasOwners { if let other = names[alias], other != owner { report.errors.append(Issue(file: owner, message: "alias '\(alias)' is the name of \(other)")) } }
        for file in topicFiles {
            let path = "topics/" + file
            guard let text = try? String(contentsOf: topicDir.appendingPathComponent(file), encoding: .utf8),
                  let doc = try? MarkdownDocument(text: text, fallbackTitle: file) else {
                report.errors.append(Issue(file: path, message: "unreadable or invalid front matter")); continue
            }
            report.topics += 1
            prose.append(RepeatedTextFinder.File(path: path, segments: RepeatedTextFinder.prose(of: doc)))
            if (doc.frontMatter["id"] as? String).map({ $0 + ".md" }) != file { report.errors.append(Issue(file: path, message: "id does not match the file name")) }
            if (doc.frontMatter["sources"] as? [Any] ?? []).isEmpty { report.errors.append(Issue(file: path, message: "no sources")) }
            if !doc.sections.contains(where: { $0.headingPath.last == "When to get help" }) {
                report.errors.append(Issue(file: path, message: "missing section '## When to get help'"))
            }
        }
        let standard = ((try? String(contentsOf: corpus.appendingPathComponent("standard-phrases.txt"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        report.repeats = RepeatedTextFinder(standard: standard).repeats(in: prose)
        for r in report.repeats {
            // A long shared run is quoted up to 30 words: enough to find it, short enough to read.
            let quote = r.words.prefix(30).joined(separator: " ") + (r.words.count > 30 ? " …" : "")
            report.errors.append(Issue(file: r.first, message: "shares \(r.words.count) words with \(r.second) (write each file fresh): “\(quote)”"))
        }
        return report
    }
}
