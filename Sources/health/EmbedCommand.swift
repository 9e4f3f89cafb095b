import ArgumentParser
import Embeddings
import Foundation

struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Print sentence embeddings as JSON: [{\"tokens\": [ids], \"embedding\": [floats]}].")

    @OptionGroup var model: ModelOptions
    @Option(name: .long, help: "Read a JSON array of strings from this file ('-' for stdin).") var jsonInput: String?
    @Argument(help: "Texts to embed.") var texts: [String] = []

    func validate() throws {
        if jsonInput == nil && texts.isEmpty { throw ValidationError("give texts to embed, or --json-input FILE") }
        if jsonInput != nil && !texts.isEmpty { throw ValidationError("give either texts or --json-input, not both") }
    }

    struct Row: Encodable { let tokens: [Int32]; let embedding: [Float] }

    func run() throws {
        try failing {
            let inputs = try jsonInput.map(Self.readJSONStrings) ?? texts
            let embedder = try model.loadEmbedder()
            let ids = embedder.tokenize(inputs)
            let vectors = try embedder.embed(tokenIDs: ids)
            let rows = ids.enumerated().map { Row(tokens: $0.element, embedding: Array(vectors.row($0.offset))) }
            let data = try JSONEncoder().encode(rows)
            FileHandle.standardOutput.write(data)
            FileHandle.standardOutput.write(Data("\n".utf8))
        }
    }

    static func readJSONStrings(_ path: String) throws -> [String] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: path) else {
                throw CLIError(message: "cannot read \(path): no such file or not readable")
            }
            data = d
        }
        guard String(data: data, encoding: .utf8) != nil else {
            throw CLIError(message: "\(path) is not valid UTF-8. Fix: convert it (e.g. `iconv -t UTF-8 \(path)`).")
        }
        guard let strings = try? JSONDecoder().decode([String].self, from: data) else {
            throw CLIError(message: "\(path) must hold a JSON array of strings, e.g. [\"fever and cough\"]")
        }
        return strings
    }
}
