import Foundation
import TestSupport

/// Runs the built `health` binary the way a user does, capturing its output and exit status.
struct CLIRunner {
    struct Result { let status: Int32; let stdout: String; let stderr: String }


    /// The binary built next to this test bundle (same configuration as the tests).
    static let binary: URL = {
        let bundleDir = Bundle.main.bundleURL.deletingLastPathComponent()
        for dir in [bundleDir, Bundle.main.bundleURL, packageRoot.appendingPathComponent(".build/debug")] {
            let candidate = dir.appendingPathComponent("health")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/health")
    }()

    static func run(_ arguments: [String], rawArguments: [Data] = [], stdin: Data? = nil, environment: [String: String] = [:],
                    directory: URL? = nil) throws -> Result {
        let p = Process()
        if rawArguments.isEmpty {
            p.executableURL = binary
            p.arguments = arguments
        } else {
            // Bytes that are not UTF-8 cannot travel in a Swift String: pass them through a shell variable file.
            let script = TestTemp.root.appendingPathComponent("args-\(UUID().uuidString)")
            var body = Data("exec '\(binary.path)' ".utf8)
            for a in arguments { body += Data("'\(a)' ".utf8) }
            for raw in rawArguments { body += Data("'".utf8) + raw + Data("' ".utf8) }
            try body.write(to: script)
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = [script.path]
        }
        p.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}
