/// Stem → the symptom variants that use it, over every condition's symptoms. A set of stems
/// contains a variant when it holds all of the variant's stems; counting postings finds those
/// variants without testing every variant of every condition (which hashed each stem of each
/// variant on every question, a tenth of a loaded server's time).
public struct SymptomLexicon: Sendable, Equatable {
    struct Variant: Sendable, Equatable { var profile: Int32; var symptom: Int32; var stemCount: Int32 }

    /// Condition by condition, symptom by symptom, variant by variant: the same order as
    /// `SymptomModel.entries`, so a variant's index is its entry's row.
    let variants: [Variant]
    let postings: [String: [Int32]]
    /// Every content stem of a condition's name or aliases ("eczema", "migraine").
    public let nameVocabulary: Set<String>

    /// `findings`: which findings of each profile it indexes (its symptoms; `\.against` for the
    /// findings that argue against it, whose lexicon has no name vocabulary).
    public init(profiles: [ConditionProfile], findings: KeyPath<ConditionProfile, [ConditionProfile.Symptom]> = \.symptoms) {
        var variants: [Variant] = []
        var postings: [String: [Int32]] = [:]
        for (pi, p) in profiles.enumerated() {
            for (si, s) in p[keyPath: findings].enumerated() {
                for stems in s.variantStems {
                    // A variant has a handful of stems: a linear check finds repeats without building a Set.
                    var distinct: [String] = []
                    distinct.reserveCapacity(stems.count)
                    for stem in stems where !distinct.contains(stem) { distinct.append(stem) }
                    for stem in distinct { postings[stem, default: []].append(Int32(variants.count)) }
                    variants.append(Variant(profile: Int32(pi), symptom: Int32(si), stemCount: Int32(distinct.count)))
                }
            }
        }
        self.variants = variants
        self.postings = postings
        nameVocabulary = findings == \.symptoms ? Set(profiles.flatMap { ([$0.name] + $0.aliases).flatMap(TextMatch.stems) }) : []
    }

    /// As stored with the profiles (`ConditionProfileArchive`).
    init(variants: [Variant], postings: [String: [Int32]], nameVocabulary: Set<String>) {
        self.variants = variants; self.postings = postings; self.nameVocabulary = nameVocabulary
    }

    /// Whether at most `limit` conditions use this stem in their findings: "chemo" names few, and
    /// says which finding it is; "weakness" names many.
    func isSpecific(_ stem: String, limit: Int) -> Bool {
        var seen = Set<Int32>()
        for v in postings[stem] ?? [] {
            seen.insert(variants[Int(v)].profile)
            if seen.count > limit { return false }
        }
        return !seen.isEmpty
    }

    /// Variants holding every one of `stems` (a denial that names the finding, or part of it: "no
    /// pain" denies "sudden severe pain in one testicle").
    func variantsCovering(_ stems: Set<String>) -> [Int] {
        guard let rarest = stems.min(by: { (postings[$0]?.count ?? 0) < (postings[$1]?.count ?? 0) }), let first = postings[rarest] else { return [] }
        let rest = stems.subtracting([rarest]).map { Set(postings[$0] ?? []) }
        return first.filter { v in rest.allSatisfy { $0.contains(v) } }.map(Int.init)
    }

    /// Indexes of the variants whose stems all occur in `stems` (a variant without stems never does).
    func variantsContained(in stems: Set<String>) -> [Int] {
        var hits: [Int32: Int32] = [:]
        for stem in stems { for v in postings[stem] ?? [] { hits[v, default: 0] += 1 } }
        return hits.compactMap { v, n in n == variants[Int(v)].stemCount ? Int(v) : nil }
    }

    /// Per condition (profile index), the symptoms that `stems` contain.
    func symptomsContained(in stems: Set<String>) -> [Int: Set<Int>] {
        var out: [Int: Set<Int>] = [:]
        for v in variantsContained(in: stems) { out[Int(variants[v].profile), default: []].insert(Int(variants[v].symptom)) }
        return out
    }
}
