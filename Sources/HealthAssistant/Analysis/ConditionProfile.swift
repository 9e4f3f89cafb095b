import Foundation
import Store

/// A condition as the analysers see it: its front matter, parsed once from the index.
public struct ConditionProfile: Sendable, Codable {
    public struct Symptom: Sendable, Codable {
        public var name: String
        public var variants: [String]
        public var weight: String
        /// Content-word stems of each variant, computed once (lexical matching runs per question).
        public var variantStems: [[String]]

        enum CodingKeys: String, CodingKey { case name, variants, weight }

        public init(name: String, variants: [String], weight: String) {
            self.name = name; self.variants = variants; self.weight = weight
            variantStems = variants.map(TextMatch.stems)
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(name: try c.decode(String.self, forKey: .name), variants: try c.decode([String].self, forKey: .variants),
                      weight: try c.decode(String.self, forKey: .weight))
        }

        public var weightValue: Double { weight == "key" ? 1.0 : weight == "typical" ? 0.6 : 0.3 }
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
    public var redFlags: [String]
    public var path: String
    public var system: String

    public static func load(from store: SQLiteStore) throws -> [ConditionProfile] {
        try store.documents(kind: "condition").compactMap { row in
            guard let json = try? JSONSerialization.jsonObject(with: Data(row.frontMatterJSON.utf8)) as? [String: Any] else { return nil }
            func list(_ key: String) -> [String] { (json[key] as? [Any] ?? []).map { "\($0)" } }
            let symptoms = (json["symptoms"] as? [Any] ?? []).compactMap { item -> Symptom? in
                guard let d = item as? [String: Any], let name = d["name"] as? String else { return nil }
                return Symptom(name: name, variants: TextMatch.variants(name), weight: d["weight"] as? String ?? "typical")
            }
            return ConditionProfile(
                id: json["id"] as? String ?? URL(fileURLWithPath: row.path).deletingPathExtension().lastPathComponent,
                name: json["name"] as? String ?? row.title, aliases: list("aliases"),
                triage: TriageLevel(rawValue: json["triage"] as? String ?? "") ?? .routine,
                prevalence: json["prevalence"] as? String ?? "uncommon", ages: list("age"), sex: json["sex"] as? String ?? "any",
                symptoms: symptoms, redFlags: list("red_flags"), path: row.path, system: json["system"] as? String ?? "")
        }
    }

    /// Prior from prevalence and fit with age and sex (log-odds-like additive terms).
    func prior(for findings: Findings) -> Double {
        var p = prevalence == "common" ? 0.12 : prevalence == "rare" ? -0.12 : 0
        if let group = findings.ageGroup, !ages.contains("any"), !ages.isEmpty, !ages.contains(group) {
            // Neighbouring groups are a mild mismatch; "adult" condition in a child is a stronger one.
            p -= (group == "infant" || ages == ["infant"]) ? 0.35 : 0.15
        }
        if let s = findings.sex, sex != "any", sex != s.rawValue { p -= 2 }
        if findings.pregnant, sex == "female", path.contains("pregnan") || system == "pregnancy" { p += 0.1 }
        if !findings.pregnant, system == "pregnancy" { p -= 0.3 }
        return p
    }
}
