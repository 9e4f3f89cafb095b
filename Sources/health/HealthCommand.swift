import ArgumentParser

struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "An on-device, retrieval-augmented health assistant.",
        discussion: "Not a diagnosis: answers point to the local corpus and say how urgent things look.",
        subcommands: [AskCommand.self, ServeCommand.self, ModelsCommand.self, CorpusCommand.self, IndexCommand.self, SearchCommand.self, EmbedCommand.self, EvalCommand.self, BenchCommand.self, RulesCommand.self]
    )
}
