import Foundation
import TestSupport
@testable import HealthAssistant

/// The project's clinical knowledge (rules/), loaded once for the tests that need only the parser,
/// the rules or the weights. `KnowledgeTests` checks that it loads; here a failure to load stops
/// the dependent tests at once.
enum TestKnowledge {
    static let loaded: Result<ClinicalKnowledge, Error> = Result { try ClinicalKnowledge.load(from: packageRoot.appendingPathComponent("rules")) }
    static var knowledge: ClinicalKnowledge {
        switch loaded {
        case .success(let k): return k
        case .failure(let e): fatalError("rules/ does not load: \(e)")
        }
    }
    static var parser: FindingsParser { knowledge.parser }
    static var engine: RuleEngine { knowledge.engine }
    static var weights: AnalysisWeights { knowledge.weights }
    /// Every rule id, for tests parameterised by rule.
    static var ruleIDs: [String] { (try? loaded.get())?.rules.map(\.id) ?? [] }
}
