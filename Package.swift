// swift-tools-version:6.0
import PackageDescription

// The element-wise kernels (softmax, GELU, layer norm) vectorise to 4-wide SSE on the default
// x86-64 target; x86-64-v3 (AVX2 + FMA, every x86 server since 2013) doubles their width.
// Numeric targets are optimised in debug builds too: `swift test` runs the real model, and
// unoptimised Swift is ~50× slower there.
#if arch(x86_64)
let vectorFlags: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "haswell"]), .unsafeFlags(["-O"], .when(configuration: .debug))]
#else
let vectorFlags: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
#endif
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "health",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "health", targets: ["health"]),
        .library(name: "Embeddings", targets: ["Embeddings"]),
        .library(name: "HealthAssistant", targets: ["HealthAssistant"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(name: "CBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        .target(name: "Linear", dependencies: ["CBLAS"], swiftSettings: vectorFlags),
        .target(name: "Embeddings", dependencies: [
            "Linear",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ], swiftSettings: optimizedInDebug),
        .target(name: "Store", dependencies: ["Linear", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: optimizedInDebug),
        .target(name: "HealthAssistant", dependencies: [
            "Embeddings", "Linear", "Store", .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "HealthServer", dependencies: [
            "HealthAssistant", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ], resources: [.copy("Resources/openapi.yaml")]),
        .executableTarget(name: "health", dependencies: [
            "Embeddings", "Linear", "Store", "HealthAssistant", "HealthServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "health-example", dependencies: ["HealthAssistant"], path: "Examples/FrontEnd"),
        // Shared by the test targets only (package root, per-process scratch directory).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LinearTests", dependencies: ["Linear"]),
        .testTarget(name: "EmbeddingsTests", dependencies: [
            "Embeddings", "Linear", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Linear", "TestSupport"]),
        .testTarget(name: "HealthAssistantTests", dependencies: ["HealthAssistant", "Store", "Embeddings", "Linear", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "HealthServerTests", dependencies: [
            "HealthServer", "HealthAssistant", "TestSupport", .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "HealthCLITests", dependencies: ["health", "Store", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
