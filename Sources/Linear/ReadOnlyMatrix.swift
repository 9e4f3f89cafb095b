/// A row-major Float32 matrix that is never written after it is made, whose floats live either in
/// memory it owns or in a `MappedFile`. Big stored parameters (the Complete model's tens of MB of
/// phrase embeddings) are used straight from the mapped file this way, where a `Matrix` (backed by
/// an `Array`) would need a copy of every byte.
public struct ReadOnlyMatrix: Sendable {
    public let rows: Int
    public let cols: Int
    let buffer: FloatBuffer

    /// Copies `matrix` (for matrices computed in memory, e.g. a freshly built model).
    public init(_ matrix: Matrix) {
        rows = matrix.rows
        cols = matrix.cols
        buffer = matrix.storage.withUnsafeBufferPointer { FloatBuffer(copying: $0) }
    }

    /// rows × cols floats (native byte order) copied from raw bytes starting at `byteOffset`.
    public init(rows: Int, cols: Int, copyingBytes raw: UnsafeRawBufferPointer, at byteOffset: Int = 0) {
        precondition(rows >= 0 && cols >= 0 && byteOffset >= 0 && byteOffset + rows * cols * 4 <= raw.count, "\(raw.count) bytes hold no \(rows)x\(cols) floats at \(byteOffset)")
        self.rows = rows
        self.cols = cols
        let floats = UnsafeRawBufferPointer(rebasing: raw[byteOffset..<(byteOffset + rows * cols * 4)])
        buffer = FloatBuffer(copying: floats)
    }

    /// rows × cols floats (native byte order) at `byteOffset` in `file`, used in place. The offset
    /// must be 4-byte aligned and the floats must lie inside the file.
    public init(rows: Int, cols: Int, mapped file: MappedFile, byteOffset: Int) {
        precondition(rows >= 0 && cols >= 0 && byteOffset >= 0 && byteOffset % 4 == 0, "bad mapped matrix \(rows)x\(cols) at \(byteOffset)")
        precondition(byteOffset + rows * cols * 4 <= file.bytes.count, "\(file.bytes.count) bytes hold no \(rows)x\(cols) floats at \(byteOffset)")
        self.rows = rows
        self.cols = cols
        buffer = FloatBuffer(mapped: file, byteOffset: byteOffset, count: rows * cols)
    }

    public subscript(row: Int, col: Int) -> Float {
        precondition(row >= 0 && row < rows && col >= 0 && col < cols, "index (\(row), \(col)) outside \(rows)x\(cols)")
        return buffer.base[row * cols + col]
    }

    /// All rows × cols floats, valid for the duration of the call.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try withExtendedLifetime(buffer) { try body(UnsafeBufferPointer(start: buffer.base, count: buffer.count)) }
    }

    /// Whether the floats are read in place from a mapped file (rather than held in memory).
    public var isMapped: Bool { buffer.isMapped }

    /// A copy as an ordinary `Matrix` (tests, and code that needs to write).
    public var matrix: Matrix { withUnsafeBufferPointer { Matrix(rows: rows, cols: cols, storage: Array($0)) } }
}

/// The floats behind a `ReadOnlyMatrix`: allocated and owned, or borrowed from a mapped file that
/// this keeps alive. `@unchecked Sendable`: nothing writes through `base` after `init`.
final class FloatBuffer: @unchecked Sendable {
    let base: UnsafePointer<Float>
    let count: Int
    /// Kept only to keep the mapping alive while the floats are in use.
    private let file: MappedFile?
    /// Whether `base` was allocated here (and is freed here).
    private let owned: Bool

    convenience init(copying source: UnsafeBufferPointer<Float>) {
        self.init(copying: UnsafeRawBufferPointer(source))
    }

    /// From raw bytes (any alignment): one copy into fresh memory, no zero-filling first.
    init(copying raw: UnsafeRawBufferPointer) {
        count = raw.count / 4
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count))
        if count > 0 { UnsafeMutableRawPointer(memory).copyMemory(from: raw.baseAddress!, byteCount: count * 4) }
        base = UnsafePointer(memory)
        file = nil
        owned = true
    }

    init(mapped file: MappedFile, byteOffset: Int, count: Int) {
        self.file = file
        self.count = count
        // An empty matrix may sit in an empty (unmapped) file: it points at a float of its own.
        let empty = count == 0
        owned = empty
        base = empty ? UnsafePointer(UnsafeMutablePointer<Float>.allocate(capacity: 1))
                     : (file.bytes.baseAddress! + byteOffset).assumingMemoryBound(to: Float.self)
    }

    var isMapped: Bool { file != nil && !owned }

    deinit {
        if owned { UnsafeMutablePointer(mutating: base).deallocate() }
    }
}
