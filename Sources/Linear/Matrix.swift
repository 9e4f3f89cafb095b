/// A dense row-major Float32 matrix. Rows are the batch dimension everywhere in this project
/// (one row per token, per text, per stored vector), so row slices are contiguous.
public struct Matrix: Sendable, Equatable {
    public let rows: Int
    public let cols: Int
    public var storage: [Float]

    public init(rows: Int, cols: Int, storage: [Float]) {
        precondition(storage.count == rows * cols, "storage has \(storage.count) floats, expected \(rows)x\(cols)")
        self.rows = rows
        self.cols = cols
        self.storage = storage
    }

    public init(rows: Int, cols: Int, repeating value: Float = 0) {
        self.init(rows: rows, cols: cols, storage: [Float](repeating: value, count: rows * cols))
    }

    /// rows × cols floats copied from raw bytes (native byte order) starting at `byteOffset`. Big
    /// stored matrices are read this way: one copy, and no zero-filling of memory about to be overwritten.
    public init(rows: Int, cols: Int, copyingBytes raw: UnsafeRawBufferPointer, at byteOffset: Int = 0) {
        let count = rows * cols
        precondition(byteOffset >= 0 && byteOffset + count * 4 <= raw.count, "\(raw.count) bytes hold no \(rows)x\(cols) floats at \(byteOffset)")
        let storage = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: raw.baseAddress! + byteOffset, byteCount: count * 4) }
            initialized = count
        }
        self.init(rows: rows, cols: cols, storage: storage)
    }

    public init(_ rowArrays: [[Float]]) {
        let cols = rowArrays.first?.count ?? 0
        precondition(rowArrays.allSatisfy { $0.count == cols }, "ragged rows")
        self.init(rows: rowArrays.count, cols: cols, storage: rowArrays.flatMap { $0 })
    }

    public subscript(row: Int, col: Int) -> Float {
        get { storage[row * cols + col] }
        set { storage[row * cols + col] = newValue }
    }

    public func row(_ index: Int) -> ArraySlice<Float> {
        storage[(index * cols)..<((index + 1) * cols)]
    }

    public var rowArrays: [[Float]] { (0..<rows).map { Array(row($0)) } }
}
