import Crypto
import Foundation

/// Streaming SHA-256 of a file, in 4 MiB reads so a 90 MB model never sits twice in memory.
public enum FileChecksum {
    public static func sha256(of url: URL) throws -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw EmbeddingError.io(file: url.path, reason: "cannot open for reading")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 4 << 20) ?? Data() } catch {
                throw EmbeddingError.io(file: url.path, reason: error.localizedDescription)
            }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
        }
        return hex(hasher.finalize())
    }

    public static func sha256(of data: Data) -> String { hex(SHA256.hash(data: data)) }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
