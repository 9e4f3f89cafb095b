#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory map of a whole file. Weights are paged in by the kernel on first touch and
/// shared between processes, so loading a model costs neither a copy nor its size in private RSS.
public final class MappedFile: @unchecked Sendable {
    // Immutable after init and read-only mapping: safe to share across threads.
    public let path: String
    public let size: Int
    public let base: UnsafeRawPointer

    public init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw EmbeddingError.io(file: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw EmbeddingError.io(file: path, reason: String(cString: strerror(errno)))
        }
        let size = Int(st.st_size)
        guard size > 0 else { throw EmbeddingError.invalidSafeTensors(file: path, reason: "file is empty") }
        // MAP_POPULATE maps every page up front in one pass: a cold start then does not take
        // ~20k separate page faults inside the first forward pass.
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_POPULATE
        #else
        let flags = MAP_PRIVATE
        #endif
        guard let p = mmap(nil, size, PROT_READ, flags, fd, 0), p != MAP_FAILED else {
            throw EmbeddingError.io(file: path, reason: "mmap failed: \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.size = size
        self.base = UnsafeRawPointer(p)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }
}
