// A front-end service using the library directly: `swift run -c release health-example "question"`.
// Copy this shape: one long-lived `HealthAssistant`, warmed up at start, shared by all requests.
import Foundation
import HealthAssistant

let question = CommandLine.arguments.dropFirst().joined(separator: " ")
let project = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let assistant = HealthAssistant(configuration: .init(projectDirectory: project, memoryLimit: 512 << 20))

do {
    try await assistant.warmUp()
    // Streaming: show the urgency the moment it is known, then the rest.
    for try await event in assistant.askStream(question.isEmpty ? "sore throat and fever for two days" : question) {
        switch event {
        case .triage(let t): print("URGENCY: \(t.level.rawValue) — \(t.reason)")
        case .condition(let c): print("  could be \(c.name) (\(Int(c.score * 100))%): matches \(c.matched.joined(separator: ", "))")
        case .redFlags(let flags): for f in flags { print("  red flag: \(f.flag)") }
        case .advice(let advice): advice.forEach { print("  → \($0)") }
        case .citations(let cites): cites.forEach { print("  [\($0.index)] \($0.path) — \($0.section)") }
        case .done(let answer): print(answer.notice)
        }
    }
    let m = await assistant.metrics
    print("cache: \(m.loads) loads, \(m.hits) hits, \(m.residentBytes / 1_048_576) MiB resident")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
