import ArgumentParser
import Embeddings
import Foundation

struct BenchEmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Embedding throughput on the fixed workload (batch 32, median of 3 after a warm-up), beside the peers.")

    @OptionGroup var model: ModelOptions
    @Option(help: "Workload JSON with 'short' and 'passages' arrays.") var workload = "../shared/eval/embed_workload.json"
    @Option(help: "Timed runs per workload.") var runs = 3
    @Flag(help: "Skip the peer engines even if installed.") var noPeers = false
    @Flag(help: "End with one JSON line {\"short\": x, \"passages\": y}.") var json = false
    static let liteQuestion = "sore throat and runny nose"

    func run() throws {
        try failing {
            guard let data = FileManager.default.contents(atPath: workload),
                  let work = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let short = work["short"] as? [String], let passages = work["passages"] as? [String] else {
                throw CLIError(message: "cannot read workload \(workload). Fix: run from the checkout beside ../shared, or pass --workload")
            }
            let rssBefore = BenchSupport.residentBytes()
            let embedder = try model.loadEmbedder(batchSize: 32)
            let rssAfter = BenchSupport.residentBytes()
            print("model \(embedder.modelID): RSS \(rssBefore / 1_048_576) MiB before load, \(rssAfter / 1_048_576) MiB after (weights are memory-mapped)")
            print("threads \(model.threads), batch 32, median of \(runs) runs after one warm-up")
            var rates: [String: Double] = [:]
            for (name, texts) in [("short", short), ("passages", passages)] {
                _ = try embedder.embed(Array(texts.prefix(64)))
                let times = try BenchSupport.timedRuns(runs) { _ = try embedder.embed(texts) }
                let tokens = embedder.tokenize(texts).reduce(0) { $0 + $1.count }
                let rate = Double(texts.count) / BenchSupport.median(times)
                rates[name] = rate
                print(String(format: "health   %-9@ %8.1f texts/s  (%.0f tokens/s; runs %@)", name, rate,
                             Double(tokens) / BenchSupport.median(times), times.map { String(format: "%.3f", $0) }.joined(separator: " ")))
            }
            print("RSS after runs: \(BenchSupport.residentBytes() / 1_048_576) MiB")
            // What the server's micro-batching buys: one pass over N copies of a Lite-sized question.
            print("micro-batches of one short question (\"\(Self.liteQuestion)\"), median of 15 passes:")
            for n in [1, 2, 4, 8, 16, 32, 64] {
                let texts = Array(repeating: Self.liteQuestion, count: n)
                _ = try embedder.embed(texts)
                let pass = BenchSupport.median(try BenchSupport.timedRuns(15) { _ = try embedder.embed(texts) })
                print(String(format: "  batch %2d: %6.2f ms per pass, %5.2f ms per question, %6.0f questions/s", n, pass * 1000, pass * 1000 / Double(n), Double(n) / pass))
            }
            if !noPeers {
                if let python = BenchSupport.peerPython() {
                    let script = URL(fileURLWithPath: workload).deletingLastPathComponent().deletingLastPathComponent()
                        .appendingPathComponent("peers/embed_peers.py").path
                    print("peers (same machine, same run): \(script) --ort --threads \(model.threads)")
                    for row in BenchSupport.runPeer(python: python, arguments: [script, "--ort", "--threads", "\(model.threads)", "--runs", "\(runs)"]) {
                        guard let engine = row["engine"] as? String, let wl = row["workload"] as? String,
                              let rate = row["texts_per_s"] as? Double, let ours = rates[wl] else { continue }
                        print(String(format: "%@ %-9@ %8.1f texts/s  → health is %.2f×", engine, wl, rate, ours / rate))
                    }
                } else {
                    print("peers not installed (run ../shared/peers/setup_peers.sh to compare side by side)")
                }
            }
            if json {
                print(String(format: "{\"short\": %.1f, \"passages\": %.1f}", rates["short"] ?? 0, rates["passages"] ?? 0))
            }
        }
    }
}
