import Foundation
import Linear

/// A copy of one stored artifact's bytes in a file of its own beside the index, laid out so it can
/// be memory-mapped and used in place. SQLite keeps a big blob in a chain of 4 KB overflow pages:
/// reading the Complete model's 40 MB back meant ten thousand page reads into a fresh buffer and a
/// second copy into its matrices, most of a cold start. The index stays the source of truth; this
/// file is a derived cache, used only while it names exactly the artifact the index holds and its
/// bytes still pass their checksum. Anything else (absent, stale, torn, foreign) is ignored and the
/// caller reads the index and writes the file again.
///
/// Layout: the magic `HEALTHAC`, a little-endian UInt32 layout version, a UInt32 header length,
/// the header (JSON), zero padding to a 64-byte boundary, then the artifact's bytes.
public enum ArtifactCacheFile {
    static let magic = Array("HEALTHAC".utf8)
    static let layoutVersion: UInt32 = 1
    static let alignment = 64

    /// What the file holds: which artifact (all must match the index's for the file to be used) and its checksum.
    public struct Header: Codable, Equatable, Sendable {
        public var name: String
        public var fingerprint: String
        public var meta: String
        public var bytes: Int
        public var checksum: String
        public init(name: String, fingerprint: String, meta: String, bytes: Int, checksum: String) {
            self.name = name; self.fingerprint = fingerprint; self.meta = meta; self.bytes = bytes; self.checksum = checksum
        }
    }

    /// A verified mapping: the artifact's bytes are `file.bytes[offset ..< offset + header.bytes]`.
    public struct Mapped: Sendable {
        public let file: MappedFile
        public let offset: Int
        public let header: Header
        public var payload: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: file.bytes[offset..<(offset + header.bytes)]) }
    }

    /// Maps `path` if its header names exactly this artifact (name, fingerprint, meta, size, and
    /// `checksum` when the index records one) and its bytes pass the header's checksum; nil
    /// otherwise (never an error: the index can always be read instead).
    public static func map(path: String, name: String, fingerprint: String, meta: String, bytes: Int, checksum: String?) -> Mapped? {
        guard let file = try? MappedFile(path: path) else { return nil }
        let raw = file.bytes
        guard raw.count >= 16, Array(raw[0..<8]) == magic,
              UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) == layoutVersion else { return nil }
        let headerLength = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
        guard headerLength <= raw.count - 16,
              let header = try? JSONDecoder().decode(Header.self, from: Data(raw[16..<(16 + headerLength)])),
              header.name == name, header.fingerprint == fingerprint, header.meta == meta, header.bytes == bytes,
              checksum == nil || header.checksum == checksum else { return nil }
        let offset = payloadOffset(headerLength: headerLength)
        guard offset <= raw.count, raw.count - offset == bytes else { return nil }
        let mapped = Mapped(file: file, offset: offset, header: header)
        guard ContentChecksum.of(mapped.payload) == header.checksum else { return nil }
        return mapped
    }

    static func payloadOffset(headerLength: Int) -> Int { (16 + headerLength + alignment - 1) / alignment * alignment }

    /// Writes the file whole under a temporary name and renames it into place, so a reader (in this
    /// or another process) sees the old file or the new one, never a half-written one, and a
    /// mapping of the old file stays valid.
    public static func write(path: String, header: Header, payload: UnsafeRawBufferPointer) throws {
        precondition(payload.count == header.bytes, "the header says \(header.bytes) bytes, the payload has \(payload.count)")
        let json = try JSONEncoder().encode(header)
        var head = Data(magic)
        withUnsafeBytes(of: layoutVersion.littleEndian) { head.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { head.append(contentsOf: $0) }
        head.append(json)
        head.append(Data(count: payloadOffset(headerLength: json.count) - head.count))
        let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary])
        }
        do {
            try handle.write(contentsOf: head)
            if payload.count > 0 { try handle.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: payload.baseAddress!), count: payload.count, deallocator: .none)) }
            try handle.close()
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }
}
