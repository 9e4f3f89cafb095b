import ArgumentParser

struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval", abstract: "Quality evaluations on shared datasets.",
        subcommands: [EvalRetrievalCommand.self, EvalDiagnosisCommand.self, EvalTriageCommand.self])
}
