import CBLAS

/// C += A · Bᵀ for a few rows of A, straight from the row-major weights B (no packing).
///
/// For a short question (≈ 10 tokens) OpenBLAS spends most of each sgemm call packing B — the
/// whole weight matrix — into its panel layout, and the packed copy is used for only a handful of
/// rows. Here each group of 6 rows of B is loaded once and multiplied against every row of A while
/// it sits in L1, so the weights are streamed exactly once and never copied.
public enum SmallGemm {
    /// Rows of A up to which this beats OpenBLAS here (measured with `health bench ask`).
    public static let maxRows = 48

    /// C[m×n] += A[m×k] · B[n×k]ᵀ, all row-major; `k` must be a multiple of 8.
    public static func accumulate(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
                                  b: UnsafePointer<Float>, ldb: Int, c: UnsafeMutablePointer<Float>, ldc: Int) {
        precondition(k % 8 == 0, "k must be a multiple of 8")
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
        }
        var j = 0
        // Six rows of B at a time against two rows of A: 12 independent FMA chains and 8 loads per
        // step (4 rows gave 8 chains for 6 loads), and A — which spills out of L1 for longer
        // inputs — is re-read n/6 times instead of n/4.
        while j + 6 <= n {
            let b0 = b + j * ldb, b1 = b0 + ldb, b2 = b1 + ldb, b3 = b2 + ldb, b4 = b3 + ldb, b5 = b4 + ldb
            // Ask for the group after next while this one is multiplied: the weights come from
            // memory once per pass, and the hardware prefetcher alone keeps too few lines in flight.
            // The requests are spread over the row pairs below: issued in one burst they overflow
            // the core's miss buffers and the prefetches themselves stall until memory answers.
            let ahead = UnsafeRawPointer(b + (j + 12) * ldb)
            var fetched = 0
            let fetchEnd = j + 18 <= n ? 6 * ldb * 4 : 0
            let fetchStep = (fetchEnd / 64 / max(1, (m + 1) / 2) + 1) * 64  // m may be 0
            var i = 0
            while i + 2 <= m {
                let stop = min(fetchEnd, fetched &+ fetchStep)
                while fetched < stop { health_prefetch(ahead + fetched); fetched &+= 64 }
                let x0 = a + i * lda, x1 = x0 + lda
                var s00 = SIMD8<Float>(), s01 = SIMD8<Float>(), s02 = SIMD8<Float>(), s03 = SIMD8<Float>(), s04 = SIMD8<Float>(), s05 = SIMD8<Float>()
                var s10 = SIMD8<Float>(), s11 = SIMD8<Float>(), s12 = SIMD8<Float>(), s13 = SIMD8<Float>(), s14 = SIMD8<Float>(), s15 = SIMD8<Float>()
                var p = 0
                while p < k {
                    let u = load(x0 + p), v = load(x1 + p)
                    var w = load(b0 + p); s00 = s00.addingProduct(u, w); s10 = s10.addingProduct(v, w)
                    w = load(b1 + p); s01 = s01.addingProduct(u, w); s11 = s11.addingProduct(v, w)
                    w = load(b2 + p); s02 = s02.addingProduct(u, w); s12 = s12.addingProduct(v, w)
                    w = load(b3 + p); s03 = s03.addingProduct(u, w); s13 = s13.addingProduct(v, w)
                    w = load(b4 + p); s04 = s04.addingProduct(u, w); s14 = s14.addingProduct(v, w)
                    w = load(b5 + p); s05 = s05.addingProduct(u, w); s15 = s15.addingProduct(v, w)
                    p &+= 8
                }
                let c0 = c + i * ldc + j, c1 = c0 + ldc
                c0[0] += s00.sum(); c0[1] += s01.sum(); c0[2] += s02.sum(); c0[3] += s03.sum(); c0[4] += s04.sum(); c0[5] += s05.sum()
                c1[0] += s10.sum(); c1[1] += s11.sum(); c1[2] += s12.sum(); c1[3] += s13.sum(); c1[4] += s14.sum(); c1[5] += s15.sum()
                i += 2
            }
            while fetched < fetchEnd { health_prefetch(ahead + fetched); fetched &+= 64 }
            if i < m {
                let x0 = a + i * lda
                var s0 = SIMD8<Float>(), s1 = SIMD8<Float>(), s2 = SIMD8<Float>(), s3 = SIMD8<Float>(), s4 = SIMD8<Float>(), s5 = SIMD8<Float>()
                var p = 0
                while p < k {
                    let u = load(x0 + p)
                    s0 = s0.addingProduct(u, load(b0 + p)); s1 = s1.addingProduct(u, load(b1 + p))
                    s2 = s2.addingProduct(u, load(b2 + p)); s3 = s3.addingProduct(u, load(b3 + p))
                    s4 = s4.addingProduct(u, load(b4 + p)); s5 = s5.addingProduct(u, load(b5 + p))
                    p &+= 8
                }
                let c0 = c + i * ldc + j
                c0[0] += s0.sum(); c0[1] += s1.sum(); c0[2] += s2.sum(); c0[3] += s3.sum(); c0[4] += s4.sum(); c0[5] += s5.sum()
            }
            j += 6
        }
        while j < n {
            let bj = b + j * ldb
            for i in 0..<m {
                let x0 = a + i * lda
                var s = SIMD8<Float>()
                var p = 0
                while p < k { s = s.addingProduct(load(x0 + p), load(bj + p)); p += 8 }
                c[i * ldc + j] += s.sum()
            }
            j += 1
        }
    }
}
