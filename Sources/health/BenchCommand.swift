import ArgumentParser

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks, side by side with the peer engines where they are installed (reported as ratios).",
        subcommands: [BenchEmbedCommand.self, BenchSearchCommand.self, BenchAskCommand.self, BenchFuzzCommand.self])
}
