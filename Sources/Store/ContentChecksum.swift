/// A fast checksum of large stored payloads (tens of MB checked on every cold start): FNV-1a-style
/// multiply-xor over 64-bit words in eight independent lanes, so the multiplications overlap
/// instead of waiting on each other (one lane runs at a quarter of the speed), then the lanes and
/// the byte count folded together. Not cryptographic: it catches torn, truncated or damaged files,
/// not an attacker.
public enum ContentChecksum {
    static let prime: UInt64 = 0x100_0000_01b3

    public static func of(_ raw: UnsafeRawBufferPointer) -> String {
        var lanes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9ce4_8422_2325_cbf2, 0x2325_cbf2_9ce4_8422,
             0xcbf2_2325_9ce4_8422, 0x8422_9ce4_cbf2_2325, 0x9ce4_cbf2_8422_2325, 0x2325_8422_cbf2_9ce4)
        let words = raw.count / 8, blocks = words / 8
        if let base = raw.baseAddress {
            for b in 0..<blocks {
                let p = base + b * 64
                lanes.0 = (lanes.0 ^ p.loadUnaligned(fromByteOffset: 0, as: UInt64.self)) &* prime
                lanes.1 = (lanes.1 ^ p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) &* prime
                lanes.2 = (lanes.2 ^ p.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) &* prime
                lanes.3 = (lanes.3 ^ p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)) &* prime
                lanes.4 = (lanes.4 ^ p.loadUnaligned(fromByteOffset: 32, as: UInt64.self)) &* prime
                lanes.5 = (lanes.5 ^ p.loadUnaligned(fromByteOffset: 40, as: UInt64.self)) &* prime
                lanes.6 = (lanes.6 ^ p.loadUnaligned(fromByteOffset: 48, as: UInt64.self)) &* prime
                lanes.7 = (lanes.7 ^ p.loadUnaligned(fromByteOffset: 56, as: UInt64.self)) &* prime
            }
        }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for lane in [lanes.0, lanes.1, lanes.2, lanes.3, lanes.4, lanes.5, lanes.6, lanes.7] { h = (h ^ lane) &* prime }
        for i in (blocks * 64)..<raw.count { h = (h ^ UInt64(raw[i])) &* prime }
        return "x8-" + String(h, radix: 16) + "-\(raw.count)"
    }
}
