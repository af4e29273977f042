// swift-tools-version: 6.1
// The fuzz target for the command decoder and for applying commands to a scene. Built and run by
// tools/fuzz with -sanitize=fuzzer,address; kept out of the main package so that ordinary builds
// carry no sanitizer flags.
import PackageDescription

let package = Package(
    name: "MarqueeFuzz",
    dependencies: [.package(name: "Marquee", path: "../..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "CommandFuzzer",
            dependencies: [
                "CLibFuzzer",
                .product(name: "MarqueeCore", package: "Marquee"),
                .product(name: "MarqueeProtocol", package: "Marquee"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
