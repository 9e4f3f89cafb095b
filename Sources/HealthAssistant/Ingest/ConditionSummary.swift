/// A short "profile" passage built from a condition's front matter (name, aliases, symptoms, red
/// flags), indexed as its own chunk so a list of symptoms finds the condition even when the prose
/// words it differently.
enum ConditionSummary {
    static func text(frontMatter: [String: Any], title: String) -> String? {
        guard let symptoms = frontMatter["symptoms"] as? [Any], !symptoms.isEmpty else { return nil }
        let names = symptoms.compactMap { ($0 as? [String: Any])?["name"] as? String }
        var parts = [title + "."]
        if let aliases = frontMatter["aliases"] as? [Any], !aliases.isEmpty {
            parts.append("Also called " + aliases.map { "\($0)" }.joined(separator: ", ") + ".")
        }
        if !names.isEmpty { parts.append("Symptoms: " + names.joined(separator: ", ") + ".") }
        if let flags = frontMatter["red_flags"] as? [Any], !flags.isEmpty {
            parts.append("Warning signs: " + flags.map { "\($0)" }.joined(separator: ", ") + ".")
        }
        return parts.joined(separator: " ")
    }
}
