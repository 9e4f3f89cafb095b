import Foundation
import Linear
import Store

/// One ranked condition with its explanation.
public struct RankedCondition: Sendable {
    public var profile: ConditionProfile
    public var score: Double
    public var keyCoverage: Double
    public var matched: [String]
    public var missing: [String]
    public var contradicted: [String]
    /// Findings the person reports that argue against it (its `against` list), which lowered it in
    /// the ranking; empty for a condition `ConditionProfile.againstCounts` spares.
    public var arguedAgainst: [String] = []
    /// How many different clauses of the question its matches rest on (nil: not counted). One
    /// clause ("headache") can come near several of a condition's findings at once; a picture
    /// needs several things said.
    public var supportingClauses: Int? = nil
    /// The clauses themselves (nil: not recorded).
    public var supportingClauseTexts: [String]? = nil
}

/// What every analyser receives: the parsed findings, the question's retrieval evidence, and
/// (for models that use them) clause embeddings.
public struct AnalysisInput: Sendable {
    public var findings: Findings
    public var profiles: [ConditionProfile]
    /// Retrieval strength per condition path, 0…1 (1 = best-supported by the corpus).
    public var retrieval: [String: Double]
    /// Embeddings of `findings.clauses` (same order), if an embedder was available.
    public var clauseVectors: Matrix?
    /// Cosine of the whole question with each condition's closest passage, by condition path
    /// (every condition, not only those retrieval surfaced); empty without an embedder.
    public var dense: [String: Double] = [:]
    /// The profiles' symptom variants by stem (see `IndexResources.symptomLexicon`); nil = built on demand.
    public var symptomLexicon: SymptomLexicon?
    /// The whole question's embedding, if an embedder was available.
    public var queryVector: [Float]?
    /// Prevalence, age and sex priors (rules/weights.yaml).
    public var priors: AnalysisWeights.Priors
    /// Clauses (indices into `findings.clauses`) saying something went away, and the words that say
    /// so (`similar_flags.reversal_words`): such a clause does not match a finding whose words do
    /// not say so too ("bleeding stopped after five minutes" is not "heavy bleeding").
    public var goneClauses: Set<Int> = []
    public var reversalWords: Set<String> = []
    /// Tells "I can move it" from "can't move it", which the embeddings do not (nil: not told apart).
    public var polarity: AbilityPolarity?
    /// Opposite ends of a scale: a clause at one end meets no phrase at the other by meaning.
    public var contrasts: FindingContrasts?
    /// The profiles' `against` findings by stem (`IndexResources.againstLexicon`); nil = built on demand.
    public var againstLexicon: SymptomLexicon?

    public init(findings: Findings, profiles: [ConditionProfile], retrieval: [String: Double], clauseVectors: Matrix?,
                dense: [String: Double] = [:], symptomLexicon: SymptomLexicon? = nil, queryVector: [Float]? = nil, priors: AnalysisWeights.Priors) {
        self.findings = findings; self.profiles = profiles; self.retrieval = retrieval; self.clauseVectors = clauseVectors
        self.dense = dense; self.symptomLexicon = symptomLexicon; self.queryVector = queryVector; self.priors = priors
    }

    /// Per condition path, the `against` findings the person reports (by label): a clause they do
    /// not deny, and do not say has gone, holds every content word of one of the finding's
    /// wordings — the lexical match symptoms get (`SymptomLexicon`). A denial ("no fever") reports
    /// nothing, and neither do the words of the condition's own name ("is it hay fever?" reports no
    /// fever against hay fever). Conditions that `ConditionProfile.againstCounts` spares are left out.
    public func reportedAgainst() -> [String: [String]] {
        let lexicon = againstLexicon ?? SymptomLexicon(profiles: profiles, findings: \.against)
        guard !lexicon.variants.isEmpty else { return [:] }
        var found: [Int: Set<Int>] = [:]
        for (c, clause) in findings.clauses.enumerated() where !clause.negated && !clause.reported && !goneClauses.contains(c) {
            let stems = Set(TextMatch.stems(clause.text))
            for (p, hits) in lexicon.symptomsContained(in: stems) where p < profiles.count && profiles[p].againstCounts {
                let profile = profiles[p]
                let named = Set(([profile.name] + profile.aliases).map(TextMatch.stems).filter { !$0.isEmpty && $0.allSatisfy(stems.contains) }.joined())
                let rest = stems.subtracting(named)
                for h in hits where named.isEmpty || profile.against[h].variantStems.contains(where: { !$0.isEmpty && $0.allSatisfy(rest.contains) }) {
                    found[p, default: []].insert(h)
                }
            }
        }
        var out: [String: [String]] = [:]
        for (p, hits) in found { out[profiles[p].path] = hits.sorted().map { profiles[p].against[$0].label } }
        return out
    }
}

/// An analysis model: ranks conditions for the findings. Lite and Complete implement it; a
/// front-end can substitute a fake.
public protocol Analyzer: Sendable {
    var name: String { get }
    func rank(_ input: AnalysisInput) -> [RankedCondition]
}
