// swift-tools-version: 6.1
// Benchmarks of the hot pieces of the frame path with ordo-one/benchmark (wall clock, instructions
// where perf allows, and malloc counts). Kept out of the main package so that ordinary builds and
// CI do not build the benchmark framework. Run with tools/benchmarks (docs/performance.md).
import PackageDescription

let package = Package(
    name: "MarqueeBenchmarks",
    dependencies: [
        .package(name: "Marquee", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FramePath",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MarqueeCore", package: "Marquee"),
                .product(name: "MarqueeRender", package: "Marquee"),
                .product(name: "MarqueeRuntime", package: "Marquee"),
            ],
            path: "Benchmarks/FramePath",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
