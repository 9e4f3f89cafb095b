import Foundation

/// Small helpers shared by the benchmark commands: process memory, percentiles and the peers.
enum BenchSupport {
    /// Resident set size of this process in bytes, from /proc/self/status.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kb * 1024
        }
        return 0
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func percentile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return 0 }
        let rank = min(s.count - 1, max(0, Int((p / 100 * Double(s.count)).rounded(.up)) - 1))
        return s[rank]
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Seconds taken by each of `runs` calls of `body`.
    static func timedRuns(_ runs: Int, _ body: () throws -> Void) rethrows -> [Double] {
        try (0..<runs).map { _ in
            let t0 = now()
            try body()
            return now() - t0
        }
    }

    /// The peer venv made by ../shared/peers/setup_peers.sh, if present.
    static func peerPython() -> String? {
        let path = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/health-peers/venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// This executable's own file: argv[0] is only "health" when it was found on the PATH.
    static func executable() -> URL {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return FileManager.default.isExecutableFile(atPath: own.path) ? own : URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    /// `Benchmarks/` of the checkout (found from the working directory or the executable).
    static func benchmarksDirectory() -> URL {
        for start in [FileManager.default.currentDirectoryPath, executable().deletingLastPathComponent().path] {
            var dir = URL(fileURLWithPath: start).standardizedFileURL
            for _ in 0..<6 {
                let candidate = dir.appendingPathComponent("Benchmarks")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                dir = dir.deletingLastPathComponent()
            }
        }
        return URL(fileURLWithPath: "Benchmarks")
    }

    /// Runs a peer script and returns its stdout lines that parse as JSON objects.
    static func runPeer(python: String, arguments: [String]) -> [[String: Any]] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        do { try p.run() } catch { return [] }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
