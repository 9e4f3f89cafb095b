import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The package root, found from this file's path (tests run from anywhere).
public let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}()

/// Scratch space for one test process: every temporary database, corpus and model folder goes
/// under one directory that is removed when the process exits, so test runs leave nothing behind.
public enum TestTemp {
    public static let root: URL = {
        let url = directory(for: getpid())
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestTemp.directory(for: getpid())) }
        return url
    }()

    static func directory(for pid: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("health-tests-\(pid)")
    }
}
