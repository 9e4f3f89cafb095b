import Foundation
import Testing
import TestSupport
@testable import HealthAssistant

/// The parsed YAML of rules/ kept beside the index: the knowledge loaded from it is the knowledge
/// parsed from the files, and a cache for other rules or a damaged one is ignored and rewritten.
struct ParsedRulesCacheTests {
    func rulesCopy() throws -> URL {
        let dir = TestTemp.root.appendingPathComponent("rules-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("rules"), to: dir)
        return dir
    }

    func cacheURL() -> URL { TestTemp.root.appendingPathComponent("parsed-\(UUID().uuidString)/rules.parsed") }

    /// What the tests can compare of two loads: every rule with its cases' outcomes, and the rest by value
    /// (dictionaries sorted: their printed order differs from one dictionary to another).
    func summary(_ k: ClinicalKnowledge) -> [String] {
        k.runCases().map { "\($0.ruleID) \($0.sentence) \($0.fired) \($0.detail)" }
            + k.concepts.map { "\($0.id) \($0.exemplars) \($0.negatives)" }
            + k.lexicons.keys.sorted().map { "\($0)=\(k.lexicons[$0]!)" }
            + ["\(k.weights.symptomWeights.sorted { $0.key < $1.key })", "\(k.weights.priors.courseMaxDays.sorted { $0.key < $1.key })",
               "\([k.weights.priors.common, k.weights.priors.rare, k.weights.priors.sexMismatch, k.weights.likelihoodTemperature])",
               "\(k.policy.selfCareFloor.map(\.id))"]
    }

    @Test func knowledgeFromTheCacheIsKnowledgeFromTheFiles() throws {
        let rules = try rulesCopy(), cache = cacheURL()
        let parsed = try ClinicalKnowledge.load(from: rules, parsedCache: cache)
        #expect(FileManager.default.fileExists(atPath: cache.path), "a load that parsed writes the cache")
        let trees = try #require(ParsedRulesCache.read(from: cache, fingerprint: parsed.fingerprint))
        #expect(trees.keys.contains("weights.yaml") && trees.keys.contains { $0.hasPrefix("safety/") } && trees.keys.contains { $0.hasPrefix("concepts/") })
        let cached = try ClinicalKnowledge.load(from: rules, parsedCache: cache)
        #expect(cached.fingerprint == parsed.fingerprint)
        #expect(summary(cached) == summary(parsed))
        for sentence in ["my dad has crushing chest pain and is sweating, no fever, 67 years old", "I'm 30 weeks pregnant with a bad headache since yesterday",
                         "no rash, temp 38.3, he isn't answering me"] {
            #expect(cached.parser.parse(sentence) == parsed.parser.parse(sentence))
        }
    }

    /// An edited rules file changes the fingerprint: the cache is not used, and is written again for the new files.
    @Test func aCacheForOtherRulesIsIgnored() throws {
        let rules = try rulesCopy(), cache = cacheURL()
        let before = try ClinicalKnowledge.load(from: rules, parsedCache: cache)
        let weights = rules.appendingPathComponent("weights.yaml")
        let text = try String(contentsOf: weights, encoding: .utf8)
        try (text + "\n# edited\n").write(to: weights, atomically: true, encoding: .utf8)
        let after = try ClinicalKnowledge.load(from: rules, parsedCache: cache)
        #expect(after.fingerprint != before.fingerprint)
        #expect(ParsedRulesCache.read(from: cache, fingerprint: before.fingerprint) == nil)
        #expect(ParsedRulesCache.read(from: cache, fingerprint: after.fingerprint) != nil)
        // A real change in a file is seen, not served from the cache.
        try text.replacingOccurrences(of: "likelihood_temperature:", with: "likelihood_temperatur:").write(to: weights, atomically: true, encoding: .utf8)
        #expect(throws: KnowledgeError.self) { try ClinicalKnowledge.load(from: rules, parsedCache: cache) }
    }

    /// A rules folder given as a symbolic link has the fingerprint of its files, so an edit behind
    /// the link is seen (it once hashed no files at all, and the cache served stale rules).
    @Test func aRulesFolderBehindALinkIsFingerprintedByItsFiles() throws {
        let rules = try rulesCopy(), cache = cacheURL()
        let link = TestTemp.root.appendingPathComponent("rules-link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: rules)
        let before = try ClinicalKnowledge.load(from: link, parsedCache: cache)
        #expect(before.fingerprint == (try ClinicalKnowledge.load(from: rules)).fingerprint)
        let weights = rules.appendingPathComponent("weights.yaml")
        try (try String(contentsOf: weights, encoding: .utf8) + "\n# edited\n").write(to: weights, atomically: true, encoding: .utf8)
        #expect(try ClinicalKnowledge.load(from: link, parsedCache: cache).fingerprint != before.fingerprint)
    }

    @Test(arguments: ["flip", "truncate", "garbage", "empty"])
    func aDamagedCacheIsIgnoredAndRewritten(damage: String) throws {
        let rules = try rulesCopy(), cache = cacheURL()
        let good = try ClinicalKnowledge.load(from: rules, parsedCache: cache)
        var bytes = try Data(contentsOf: cache)
        switch damage {
        case "flip": bytes[bytes.count / 2] ^= 0x20
        case "truncate": bytes = bytes.prefix(bytes.count - 3)
        case "garbage": bytes = Data((0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        default: bytes = Data()
        }
        try bytes.write(to: cache)
        #expect(ParsedRulesCache.read(from: cache, fingerprint: good.fingerprint) == nil)
        let reloaded = try ClinicalKnowledge.load(from: rules, parsedCache: cache)
        #expect(summary(reloaded) == summary(good))
        #expect(ParsedRulesCache.read(from: cache, fingerprint: good.fingerprint) != nil, "rewritten after the parse")
    }
}
