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
