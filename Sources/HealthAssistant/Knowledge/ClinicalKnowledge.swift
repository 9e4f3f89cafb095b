import Foundation

/// Everything clinical that is not a condition file: the safety rules, the shared phrase lists,
/// how negation and history are read, the triage policy and the analysis weights. Loaded from
/// `rules/` and validated once per process (`load(from:)`); a bad file is an error, never a
/// partial rule set.
public struct ClinicalKnowledge: Sendable {
    public let directory: URL
    public let rules: [SafetyRule]
    public let lexicons: [String: [String]]
    public let findings: FindingsLexicon
    public let policy: TriagePolicyData
    public let weights: AnalysisWeights
    /// Red-flag concepts with their exemplars (`rules/concepts/`).
    public let concepts: [RedFlagConcept]

    /// A fingerprint of the files' contents (FNV-1a over every YAML file, in path order).
    public internal(set) var fingerprint: String

    /// Loads and validates `directory` (normally `<project>/rules`): every key, reference and
    /// pattern is checked. When `validated` is the fingerprint of these very files from an earlier
    /// full check, patterns compile on first use instead of all at once (a cold `health ask` then
    /// compiles only the patterns it reaches); every other check still runs. `parsedCache`: a file
    /// for the parsed YAML (`ParsedRulesCache`), read when it holds these very files and written
    /// after a load that had to parse.
    public static func load(from directory: URL, validated: String? = nil, parsedCache: URL? = nil) throws -> ClinicalKnowledge {
        let fingerprint = try Self.fingerprint(of: directory)
        let trees = KnowledgeLoader.ParsedTrees(parsedCache.flatMap { ParsedRulesCache.read(from: $0, fingerprint: fingerprint) } ?? [:])
        var k = try KnowledgeLoader(directory: directory, eager: validated != fingerprint, trees: trees).load()
        k.fingerprint = fingerprint
        // Stored only if no file changed while it was read, so the trees are those of `fingerprint`.
        if trees.parsedAny, let parsedCache, (try? Self.fingerprint(of: directory)) == fingerprint {
            ParsedRulesCache.write(trees.byPath, fingerprint: fingerprint, to: parsedCache)
        }
        return k
    }

    init(directory: URL, rules: [SafetyRule], lexicons: [String: [String]], findings: FindingsLexicon, policy: TriagePolicyData, weights: AnalysisWeights,
         concepts: [RedFlagConcept]) {
        self.directory = directory; self.rules = rules; self.lexicons = lexicons; self.findings = findings; self.policy = policy
        self.weights = weights; self.concepts = concepts; fingerprint = ""
    }

    /// A fingerprint of the concepts' texts: the stored exemplar embeddings are reused while it holds.
    public var conceptFingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in concepts { for text in [c.id] + c.exemplars + ["|"] + c.negatives { for b in text.utf8 + [0] { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 } } }
        return String(hash, radix: 16)
    }

    static func fingerprint(of directory: URL) throws -> String {
        let fm = FileManager.default
        // Foundation's enumerator lists nothing under a folder given as a symbolic link: resolve it,
        // or every rules folder would share one fingerprint and a cache keyed by it would serve stale rules.
        let root = directory.resolvingSymlinksInPath()
        let files = (fm.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        guard !files.isEmpty else {
            throw KnowledgeError(file: directory.path, message: "holds no .yaml rule files", fix: "restore rules/ from git (`git checkout -- rules`)")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for file in files {
            guard let data = fm.contents(atPath: root.appendingPathComponent(file).path) else { continue }
            for byte in file.utf8 + [0] + Array(data) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return String(hash, radix: 16) + "-\(files.count)"
    }

    public var engine: RuleEngine { RuleEngine(rules: rules, denial: findings.explicitDenial) }
    public var parser: FindingsParser { FindingsParser(lexicon: findings) }

    /// Runs every rule's own cases through the parser and the engine. Each result names the rule,
    /// the sentence, and what happened (`health rules check`, and the tests by rule id).
    public func runCases() -> [CaseResult] {
        let parser = self.parser
        var results: [CaseResult] = []
        for rule in rules {
            let single = RuleEngine(rules: [rule], denial: findings.explicitDenial)
            for (sentence, mustFire) in rule.cases.fire.map({ ($0, true) }) + rule.cases.quiet.map({ ($0, false) }) {
                let outcome = single.outcomes(parser.parse(sentence))[0]
                let fired = outcome.status == .fired
                results.append(CaseResult(ruleID: rule.id, file: rule.file, sentence: sentence, mustFire: mustFire, fired: fired,
                                          detail: Self.describe(outcome)))
            }
        }
        return results
    }

    public struct CaseResult: Sendable {
        public var ruleID: String
        public var file: String
        public var sentence: String
        public var mustFire: Bool
        public var fired: Bool
        public var detail: String
        public var passed: Bool { mustFire == fired }
    }

    /// One line on what a rule did with a question.
    public static func describe(_ o: RuleEngine.Outcome) -> String {
        switch o.status {
        case .fired: return "fired on \"\(o.hit?.clause ?? "")\""
        case .silent: return "no pattern matched"
        case .patternsMissing(let missing):
            let found = o.matchedClauses.enumerated().compactMap { i, c in c.map { "pattern \(i + 1) on \"\($0)\"" } }
            return "matched \(found.joined(separator: ", ")); pattern \(missing.map { String($0 + 1) }.joined(separator: ", ")) found nothing"
        case .conditionFailed(let why): return "patterns matched, but \(why)"
        case .vetoed(let veto): return "patterns matched, but vetoed: \(veto)"
        }
    }
}
