import Foundation

/// `health corpus check`: the rules that keep the library sound — schema, unique ids, file name =
/// id, known triage/weight values, enough symptoms with a key one, red flags for every emergency,
/// no alias claimed twice, sources — plus a coverage table by body system, triage and age.
public struct CorpusValidator: Sendable {
    public static let triageLevels: Set<String> = ["emergency", "urgent", "routine", "self-care"]
    public static let weights: Set<String> = ["key", "typical", "occasional"]
    public static let prevalences: Set<String> = ["common", "uncommon", "rare"]
    public static let ages: Set<String> = ["any", "infant", "child", "adolescent", "adult", "older-adult"]
    public static let sexes: Set<String> = ["any", "female", "male"]
    public static let conditionSections = ["Overview", "Symptoms", "When to get help", "Self-care", "Causes and risk factors"]

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
        for file in conditionFiles {
            let path = "conditions/" + file
            func error(_ m: String) { report.errors.append(Issue(file: path, message: m)) }
            guard let text = try? String(contentsOf: conditionDir.appendingPathComponent(file), encoding: .utf8) else {
                error("unreadable or not UTF-8"); continue
            }
            let doc: MarkdownDocument
            do { doc = try MarkdownDocument(text: text, fallbackTitle: file) } catch { report.errors.append(Issue(file: path, message: "\(error)")); continue }
            report.conditions += 1
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
            if (doc.frontMatter["id"] as? String).map({ $0 + ".md" }) != file { report.errors.append(Issue(file: path, message: "id does not match the file name")) }
            if (doc.frontMatter["sources"] as? [Any] ?? []).isEmpty { report.errors.append(Issue(file: path, message: "no sources")) }
            if !doc.sections.contains(where: { $0.headingPath.last == "When to get help" }) {
                report.errors.append(Issue(file: path, message: "missing section '## When to get help'"))
            }
        }
        return report
    }
}
