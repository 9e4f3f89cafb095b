import Foundation

/// A validated view of a `.safetensors` file: an 8-byte little-endian header length, a JSON
/// header describing each tensor (dtype, shape, byte range), then the raw little-endian data.
/// Nothing is copied; tensors are pointers into the memory map.
public struct SafeTensors: Sendable {
    public enum DType: String, Sendable {
        case f32 = "F32", f16 = "F16", bf16 = "BF16", i64 = "I64", i32 = "I32", u8 = "U8", i8 = "I8", bool = "BOOL", f64 = "F64"
        var byteSize: Int {
            switch self {
            case .f64, .i64: return 8
            case .f32, .i32: return 4
            case .f16, .bf16: return 2
            case .u8, .i8, .bool: return 1
            }
        }
    }

    public struct TensorInfo: Sendable, Equatable {
        public let name: String
        public let dtype: DType
        public let shape: [Int]
        public let byteRange: Range<Int>
        public var elementCount: Int { shape.reduce(1, *) }
    }

    public let file: MappedFile
    public let tensors: [String: TensorInfo]
    let dataStart: Int

    public init(path: String) throws {
        try self.init(file: MappedFile(path: path))
    }

    public init(file: MappedFile) throws {
        let path = file.path
        func fail(_ reason: String) -> EmbeddingError { .invalidSafeTensors(file: path, reason: reason) }
        guard file.size >= 8 else { throw fail("shorter than the 8-byte header length") }
        let headerLength = Int(UInt64(littleEndian: file.base.loadUnaligned(as: UInt64.self)))
        guard headerLength > 1, headerLength <= file.size - 8, headerLength < 100_000_000 else {
            throw fail("header length \(headerLength) does not fit a file of \(file.size) bytes (truncated download?)")
        }
        let headerData = Data(bytes: file.base + 8, count: headerLength)
        guard let json = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any] else {
            throw fail("header is not a JSON object")
        }
        let dataStart = 8 + headerLength
        let dataSize = file.size - dataStart
        var tensors: [String: TensorInfo] = [:]
        for (name, value) in json where name != "__metadata__" {
            guard let entry = value as? [String: Any],
                  let dtypeName = entry["dtype"] as? String,
                  let shape = entry["shape"] as? [Int],
                  let offsets = entry["data_offsets"] as? [Int], offsets.count == 2 else {
                throw fail("tensor '\(name)' lacks dtype, shape or data_offsets")
            }
            guard let dtype = DType(rawValue: dtypeName) else { throw fail("tensor '\(name)' has unknown dtype \(dtypeName)") }
            guard shape.allSatisfy({ $0 >= 0 }) else { throw fail("tensor '\(name)' has a negative dimension") }
            let (begin, end) = (offsets[0], offsets[1])
            guard begin >= 0, begin <= end, end <= dataSize else {
                throw fail("tensor '\(name)' bytes \(begin)..<\(end) fall outside the \(dataSize)-byte data section")
            }
            let expected = shape.reduce(1, *) * dtype.byteSize
            guard end - begin == expected else {
                throw fail("tensor '\(name)' has \(end - begin) bytes but shape \(shape) of \(dtypeName) needs \(expected)")
            }
            guard (dataStart + begin) % dtype.byteSize == 0 else {
                throw fail("tensor '\(name)' is not aligned to its element size")
            }
            tensors[name] = TensorInfo(name: name, dtype: dtype, shape: shape, byteRange: begin..<end)
        }
        // Overlapping ranges mean a forged or damaged header.
        let sorted = tensors.values.filter { !$0.byteRange.isEmpty }.sorted { $0.byteRange.lowerBound < $1.byteRange.lowerBound }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.byteRange.upperBound > b.byteRange.lowerBound {
            throw fail("tensors '\(a.name)' and '\(b.name)' overlap")
        }
        self.file = file
        self.tensors = tensors
        self.dataStart = dataStart
    }

    /// A pointer to an F32 tensor whose shape must be exactly `shape`.
    public func float32(_ name: String, shape: [Int]) throws -> UnsafePointer<Float> {
        guard let info = tensors[name] else { throw EmbeddingError.missingTensor(file: file.path, name: name) }
        guard info.dtype == .f32 else {
            throw EmbeddingError.invalidSafeTensors(file: file.path, reason: "tensor '\(name)' is \(info.dtype.rawValue), expected F32")
        }
        guard info.shape == shape else {
            throw EmbeddingError.tensorShape(file: file.path, name: name, expected: shape, actual: info.shape)
        }
        return (file.base + dataStart + info.byteRange.lowerBound).assumingMemoryBound(to: Float.self)
    }

    /// Fails unless the file holds exactly `expected` tensor names: a missing name means a broken
    /// file, an extra one means a different architecture whose weights would be silently ignored.
    public func requireExactly(_ expected: Set<String>) throws {
        for name in expected.sorted() where tensors[name] == nil {
            throw EmbeddingError.missingTensor(file: file.path, name: name)
        }
        for name in tensors.keys.sorted() where !expected.contains(name) {
            throw EmbeddingError.unexpectedTensor(file: file.path, name: name)
        }
    }
}
