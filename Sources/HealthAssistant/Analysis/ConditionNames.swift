/// The conditions a question names ("he has a hernia in his groin", "my son has hydrocephalus"):
/// a person who says they live with a condition needs its warning signs checked whatever the
/// ranking says, because its flags are what to watch for. Names and aliases are matched word for
/// word within one clause the person does not deny.
public struct ConditionNames: Sendable {
    /// (profile index, content stems of one name or alias).
    let entries: [(profile: Int, stems: [String])]
    /// Entry indices by their first stem: a clause only tests the names that start with one of its words.
    let byFirstStem: [String: [Int]]

    public init(_ profiles: [ConditionProfile]) {
        var entries: [(Int, [String])] = []
        for (i, p) in profiles.enumerated() {
            for name in [p.name] + p.aliases {
                // Short capitals ("AS", "TEN") read as common words once lower-cased.
                if name.count <= 4, name == name.uppercased() { continue }
                let stems = TextMatch.stems(name)
                guard !stems.isEmpty, stems.count > 1 || stems[0].count >= 4 else { continue }
                entries.append((i, stems))
            }
        }
        self.init(entries: entries)
    }

    /// From entries already stemmed (the archive stores them: stemming every name and alias was a
    /// few ms of each cold start). Each entry's stems are non-empty.
    init(entries: [(profile: Int, stems: [String])]) {
        self.entries = entries
        byFirstStem = Dictionary(grouping: entries.indices, by: { entries[$0].stems[0] })
    }

    /// Indices of the profiles named in `clauses` (stems of the positive clauses), in profile order.
    func named(in clauses: [Set<String>]) -> [Int] {
        var found = Set<Int>()
        for c in clauses {
            for stem in c {
                for e in byFirstStem[stem] ?? [] where entries[e].stems.allSatisfy(c.contains) { found.insert(entries[e].profile) }
            }
        }
        return found.sorted()
    }
}
