import Foundation
import Testing
@testable import Linear

/// Each kernel against a plain, obviously-correct loop on small hand-made inputs.
struct LinearKernelTests {
    @Test func gemmMatchesNaiveProductIncludingTransposeAndStrides() {
        let a = Matrix([[1, 2, 3], [4, 5, 6]])
        let b = Matrix([[7, 8], [9, 10], [11, 12]])
        let c = BLAS.matmul(a, b)
        #expect(c == Matrix([[58, 64], [139, 154]]))
        let bt = Matrix([[7, 9, 11], [8, 10, 12]])
        #expect(BLAS.matmul(a, bt, transposeB: true) == c)
    }

    @Test func gemmWithBetaAccumulatesIntoOutput() {
        var out: [Float] = [1, 1, 1, 1]
        let a: [Float] = [1, 0, 0, 1], b: [Float] = [2, 3, 4, 5]
        out.withUnsafeMutableBufferPointer { o in
            BLAS.gemm(m: 2, n: 2, k: 2, a: a, lda: 2, b: b, ldb: 2, beta: 1, c: o.baseAddress!, ldc: 2)
        }
        #expect(out == [3, 4, 5, 6])
    }

    @Test func fastExpIsWithinTwoMillionthsRelative() {
        for x in stride(from: Float(-80), through: 80, by: 0.37) {
            let want = Foundation.exp(Double(x))
            let got = Double(VectorMath.fastExp(x))
            #expect(abs(got - want) / want < 2e-6, "exp(\(x))")
        }
    }

    @Test func geluMatchesErfDefinition() {
        var xs: [Float] = stride(from: Float(-8), through: 8, by: 0.01).map { $0 }
        let want = xs.map { 0.5 * Double($0) * (1 + Foundation.erf(Double($0) / 2.0.squareRoot())) }
        xs.withUnsafeMutableBufferPointer { VectorMath.geluInPlace($0.baseAddress!, count: $0.count) }
        for (g, w) in zip(xs, want) { #expect(abs(Double(g) - w) < 2e-6) }
        #expect(xs.first! > -1e-6 && xs.first! <= 0)  // GELU(-8) ≈ 0, not NaN
    }

    @Test func softmaxIsStableAndSumsToOne() {
        var row: [Float] = [1000, 1001, 1002, -1000, 3, 4, 5, 6, 7, 8, 9]
        row.withUnsafeMutableBufferPointer { VectorMath.softmaxInPlace($0.baseAddress!, count: $0.count) }
        #expect(abs(row.reduce(0, +) - 1) < 1e-5)
        let e: [Double] = [0, 1, 2].map { Foundation.exp(Double($0)) }
        #expect(abs(Double(row[2]) - e[2] / e.reduce(0, +)) < 1e-6)
        #expect(row[3] < 1e-30)
        #expect(row.allSatisfy { !$0.isNaN })
    }

    @Test func layerNormNormalisesEachRowThenScalesAndShifts() {
        var data: [Float] = [1, 2, 3, 4, 10, 10, 10, 10]
        let gamma: [Float] = [1, 2, 1, 1], beta: [Float] = [0, 0, 1, 0]
        data.withUnsafeMutableBufferPointer {
            VectorMath.layerNormInPlace($0.baseAddress!, rows: 2, width: 4, gamma: gamma, beta: beta, epsilon: 1e-12)
        }
        let mean: Float = 2.5, sd = Float(1.25).squareRoot()
        #expect(abs(data[0] - (1 - mean) / sd) < 1e-5)
        #expect(abs(data[1] - 2 * (2 - mean) / sd) < 1e-5)
        #expect(abs(data[2] - ((3 - mean) / sd + 1)) < 1e-5)
        // A constant row has zero variance: it becomes beta, not NaN.
        #expect(Array(data[4...]) == [0, 0, 1, 0])
    }

    @Test func topKReturnsBestFirstWithStableTies() {
        let scores: [Float] = [0.1, 0.9, 0.5, 0.9, -1, .nan, 0.7]
        let hits = TopK.select(scores, k: 3)
        #expect(hits.map(\.index) == [1, 3, 6])
        #expect(TopK.select(scores, k: 0).isEmpty)
        #expect(TopK.select(scores, k: 100).count == 6)  // NaN is never a hit
    }

    @Test func topKAgreesWithFullSortOnRandomData() {
        var rng = SystemRandomNumberGenerator()
        let scores = (0..<5000).map { _ in Float.random(in: -1...1, using: &rng) }
        let want = scores.enumerated().sorted { $0.element > $1.element }.prefix(25).map(\.offset)
        #expect(TopK.select(scores, k: 25).map(\.index) == Array(want))
    }

    @Test func l2NormalizeKeepsZeroVectorZero() {
        var v: [Float] = [3, 4]
        v.withUnsafeMutableBufferPointer { VectorMath.l2NormalizeInPlace($0.baseAddress!, count: 2) }
        #expect(v == [0.6, 0.8])
        var z: [Float] = [0, 0]
        z.withUnsafeMutableBufferPointer { VectorMath.l2NormalizeInPlace($0.baseAddress!, count: 2) }
        #expect(z == [0, 0])
    }

    @Test func parallelMapKeepsOrderAndPropagatesErrors() throws {
        let squares = Parallel.map(7) { $0 * $0 }
        #expect(squares == [0, 1, 4, 9, 16, 25, 36])
        struct Boom: Error {}
        #expect(throws: Boom.self) { try Parallel.map(4) { i -> Int in if i == 2 { throw Boom() }; return i } }
    }
}
