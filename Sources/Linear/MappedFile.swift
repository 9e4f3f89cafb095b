#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file mapped read-only into memory. Large stored matrices are used in place from the
/// page cache this way: no read into a buffer and no copy into an array, so a cold process pays
/// only for the pages it touches (and those are usually already cached by the OS).
///
/// `@unchecked Sendable`: the mapping is private and read-only and the pointer never changes after
/// `init`, so any thread may read it; it is unmapped once, when the last owner lets go.
public final class MappedFile: @unchecked Sendable {
    public let path: String
    public let bytes: UnsafeRawBufferPointer

    public enum MapError: Error, CustomStringConvertible, Equatable {
        case open(path: String, errno: Int32)
        case map(path: String, errno: Int32)
        public var description: String {
            switch self {
            case let .open(path, e): return "cannot open \(path): \(String(cString: strerror(e)))"
            case let .map(path, e): return "cannot map \(path): \(String(cString: strerror(e)))"
            }
        }
    }

    /// Maps `path` (an empty file maps to an empty buffer). The file must not be rewritten in
    /// place while mapped: writers replace it by renaming a new file over it, which leaves this
    /// mapping on the old contents.
    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MapError.open(path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw MapError.map(path: path, errno: errno) }
        let size = Int(info.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw MapError.map(path: path, errno: errno)
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
