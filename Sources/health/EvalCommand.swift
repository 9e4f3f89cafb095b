import ArgumentParser

struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval", abstract: "Quality evaluations on shared datasets.",
        subcommands: [EvalRetrievalCommand.self])
}
