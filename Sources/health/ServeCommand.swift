import ArgumentParser
import Foundation
import HealthAssistant
import HealthServer
import Hummingbird

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the HTTP API (loopback by default).")

    @OptionGroup var options: AssistantOptions
    @Option(help: "Address to bind.") var host = "127.0.0.1"
    @Option(help: "Port.") var port = 8080
    @Option(help: "Analyses running at once.") var maxInFlight = 16
    @Option(help: "Requests that may wait before 503.") var maxQueue = 256
    @Option(help: "Per-request timeout in seconds.") var timeout = 10.0
    @Option(help: "Most texts embedded in one micro-batch.") var batchMax = 64
    @Option(help: "Embedding passes that may run at once (each keeps to one core when two overlap).") var batchPasses = 1
    @Option(help: "How long (ms) the first question of a micro-batch may wait for company (0 = only batch what queued while the model was busy).")
    var batchWaitMs = 0.0
    @Option(help: "Queue depth at which Complete steps down to Lite.") var degradeLiteAt = 32
    @Option(help: "Queue depth at which Lite steps down to keyword-only.") var degradeKeywordAt = 128

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard maxInFlight >= 1, maxQueue >= 0, timeout > 0, batchMax >= 1, batchPasses >= 1, batchWaitMs >= 0, degradeLiteAt >= 1, degradeKeywordAt >= 1 else {
            throw ValidationError("limits must be positive")
        }
    }

    func run() async throws {
        let assistant = options.assistant(batching: .init(maxBatch: batchMax, maxWait: .microseconds(Int(batchWaitMs * 1000)), maxPasses: batchPasses))
        let config = ServerConfiguration(host: host, port: port, maxInFlight: maxInFlight, maxQueue: maxQueue,
                                         requestTimeout: .milliseconds(Int(timeout * 1000)),
                                         degradeToLiteAt: degradeLiteAt, degradeToKeywordAt: degradeKeywordAt)
        if config.apiToken == nil, host != "127.0.0.1", host != "localhost", host != "::1" {
            printErr("note: HEALTH_API_TOKEN is not set, so requests from other hosts will be refused (403).")
        }
        printErr("warming up models…")
        do { try await assistant.warmUp() } catch {
            printErr("health: error: \(error)")
            throw ExitCode(1)
        }
        printErr("serving on http://\(host):\(port)  (Ctrl-C stops gracefully)")
        try await HealthServer(assistant: assistant, configuration: config).application().runService()
    }
}
