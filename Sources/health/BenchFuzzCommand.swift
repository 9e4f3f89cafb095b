import ArgumentParser
import Foundation
import HealthAssistant

/// Fuzzes the parser and the safety-rule engine: random, mutated and grammar-built inputs up to
/// the question limit, each timed. Passing means the run finishes (no crash) and no input takes
/// 100 ms or more.
struct BenchFuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fuzz", abstract: "Fuzz the parser and rule engine; report crashes and the slowest inputs.")

    @OptionGroup var location: RulesCommand.Location
    @Option(help: "Number of inputs.") var count = 1_000_000
    @Option(help: "Random seed.") var seed: UInt64 = 2026
    @Option(help: "Fail when any input takes at least this many milliseconds.") var limitMs = 100.0

    func run() throws {
        let knowledge = try failing { try location.load() }
        let parser = knowledge.parser, engine = knowledge.engine
        var fuzzer = InputFuzzer(seed: seed, sentences: knowledge.rules.flatMap { $0.cases.fire + $0.cases.quiet },
                                 maxLength: HealthAssistant.maxQuestionLength)
        var times: [Double] = []
        times.reserveCapacity(count)
        var slowest: [(ms: Double, input: String)] = []
        var fired = 0
        let start = BenchSupport.now()
        for i in 0..<count {
            let input = fuzzer.next()
            let t0 = BenchSupport.now()
            fired += engine.hits(parser.parse(input)).isEmpty ? 0 : 1
            let ms = (BenchSupport.now() - t0) * 1000
            times.append(ms)
            if slowest.count < 5 || ms > slowest[slowest.count - 1].ms {
                slowest.append((ms, input))
                slowest.sort { $0.ms > $1.ms }
                if slowest.count > 5 { slowest.removeLast() }
            }
            if (i + 1) % 100_000 == 0 { printErr("  \(i + 1) inputs, slowest so far \(String(format: "%.1f", slowest.first?.ms ?? 0)) ms") }
        }
        let total = BenchSupport.now() - start
        print(String(format: "%d inputs in %.1f s (seed %llu): p50 %.3f ms, p99 %.3f ms, max %.2f ms; %d fired a rule; 0 crashes",
                     count, total, seed, BenchSupport.percentile(times, 50), BenchSupport.percentile(times, 99), slowest.first?.ms ?? 0, fired))
        for s in slowest {
            print(String(format: "  %.2f ms  %d chars  %@", s.ms, s.input.count, String(s.input.prefix(70)).replacingOccurrences(of: "\n", with: " ")))
        }
        let over = times.filter { $0 >= limitMs }.count
        if over > 0 {
            printErr("fuzz: \(over) input(s) took \(limitMs) ms or more")
            throw ExitCode(1)
        }
    }
}
