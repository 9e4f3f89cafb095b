import Foundation

/// A model's folder under `models/<name>/`, checked against the manifest. A full SHA-256 pass
/// over 90 MB costs a noticeable fraction of a second, so after one successful check the size
/// and modification time of each file are stamped in `.verified.json`; later loads re-hash only
/// files whose size or mtime changed (a truncated or rewritten file always changes one of them).
public struct ModelDirectory: Sendable {
    public let url: URL
    public let model: ModelManifest.Model

    public init(url: URL, model: ModelManifest.Model) {
        self.url = url
        self.model = model
    }

    public enum FileState: Sendable, Equatable {
        case ok, missing, wrongSize(Int), wrongChecksum(String)
    }

    struct Stamp: Codable, Equatable { var size: Int; var mtime: Double; var sha256: String }

    var stampURL: URL { url.appendingPathComponent(".verified.json") }

    func fileURL(_ file: ModelManifest.File) -> URL { url.appendingPathComponent(file.path) }

    /// The state of every manifest file; `forceHash` ignores the stamp.
    public func check(forceHash: Bool = false) throws -> [(file: ModelManifest.File, state: FileState)] {
        let stored = loadStamps()
        var stamps = forceHash ? [:] : stored
        var results: [(ModelManifest.File, FileState)] = []
        let fm = FileManager.default
        for file in model.files {
            let path = fileURL(file).path
            guard let attrs = try? fm.attributesOfItem(atPath: path) else {
                results.append((file, .missing)); continue
            }
            let size = (attrs[.size] as? NSNumber)?.intValue ?? -1
            let mtime = (attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            if size != file.bytes { results.append((file, .wrongSize(size))); continue }
            if let s = stamps[file.path], s.size == size, s.mtime == mtime, s.sha256 == file.sha256 {
                results.append((file, .ok)); continue
            }
            let digest = try FileChecksum.sha256(of: fileURL(file))
            if digest == file.sha256 {
                stamps[file.path] = Stamp(size: size, mtime: mtime, sha256: digest)
                results.append((file, .ok))
            } else {
                results.append((file, .wrongChecksum(digest)))
            }
        }
        // Written only when a file was hashed anew: rewriting an unchanged stamp (an atomic write,
        // with its fsync) cost every load 5–25 ms on the embedder's critical path.
        if stamps != stored { saveStamps(stamps) }
        return results
    }

    /// Throws the first problem as an error that names the file and `health models fetch`.
    public func verify() throws {
        for (file, state) in try check() {
            switch state {
            case .ok: continue
            case .missing: throw EmbeddingError.modelMissing(directory: url.path, file: file.path)
            case .wrongSize(let size):
                throw EmbeddingError.checksumMismatch(file: fileURL(file).path, expected: "\(file.sha256) (\(file.bytes) bytes)",
                                                      actual: "of a \(size)-byte file")
            case .wrongChecksum(let digest):
                throw EmbeddingError.checksumMismatch(file: fileURL(file).path, expected: file.sha256, actual: digest)
            }
        }
    }

    func loadStamps() -> [String: Stamp] {
        guard let data = try? Data(contentsOf: stampURL),
              let stamps = try? JSONDecoder().decode([String: Stamp].self, from: data) else { return [:] }
        return stamps
    }

    func saveStamps(_ stamps: [String: Stamp]) {
        guard !stamps.isEmpty, let data = try? JSONEncoder().encode(stamps) else { return }
        // Best effort: a read-only model folder just means hashing again next time.
        try? data.write(to: stampURL, options: .atomic)
    }
}
