// swift-tools-version: 6.1
// Marquee: a kiosk renderer for Linux. See docs/architecture.md for the module graph.
import PackageDescription

/// C libraries come from Debian's -dev packages through pkg-config; each module map wraps one
/// library and its shim header turns the macros Swift cannot import into prefixed inline functions.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "Marquee",
    products: [
        .executable(name: "marquee", targets: ["marquee"]),
        // For the fuzz package in Tests/fuzz (built with -sanitize=fuzzer) and the benchmark
        // package in Tests/benchmarks (ordo-one/benchmark), kept apart so ordinary builds carry
        // neither.
        .library(name: "MarqueeCore", targets: ["MarqueeCore"]),
        .library(name: "MarqueeProtocol", targets: ["MarqueeProtocol"]),
        .library(name: "MarqueeRender", targets: ["MarqueeRender"]),
        .library(name: "MarqueeRuntime", targets: ["MarqueeRuntime"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: "libfreetype-dev"),
        systemLibrary("CPixman", pkgConfig: "pixman-1", apt: "libpixman-1-dev"),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: "libpng-dev"),
        systemLibrary("CJPEG", pkgConfig: "libjpeg", apt: "libjpeg62-turbo-dev"),
        systemLibrary("CFontconfig", pkgConfig: "fontconfig", apt: "libfontconfig-dev"),
        systemLibrary("CDRM", pkgConfig: "libdrm", apt: "libdrm-dev"),
        systemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", apt: "libharfbuzz-dev"),
        systemLibrary("CFriBidi", pkgConfig: "fribidi", apt: "libfribidi-dev"),
        systemLibrary("CUnibreak", pkgConfig: "libunibreak", apt: "libunibreak-dev"),
        // SDL2's headers (libsdl2-dev) for the preview window's types and constants, with no
        // pkg-config and no link: --backend window opens the library at run time (SDLLibrary), so
        // the binary and its package do not depend on SDL2.
        .systemLibrary(name: "CSDL2", path: "Sources/CSDL2"),
        // libseat's header (libseat-dev), likewise with no link: `run --seat` opens libseat at run
        // time (SeatLibrary), so only kiosks that use seats need libseat1.
        .systemLibrary(name: "CSeat", path: "Sources/CSeat"),
        systemLibrary("CMosquitto", pkgConfig: "libmosquitto", apt: "libmosquitto-dev"),
        // Linux kernel interfaces Glibc's module map leaves out (signalfd); no library to link.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // The processor's prefetch hint (one inline function; no library to link).
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),
        // A JSON string's end found sixteen bytes at a time (SSE2, NEON; one inline function).
        .systemLibrary(name: "CScan", path: "Sources/CScan"),
        // Rows of one 32-bit pixel (wmemset, or a few 16-byte stores; two inline functions).
        .systemLibrary(name: "CFill", path: "Sources/CFill"),
        // Streaming stores into scan-out memory (one inline function a width; no library to link).
        .systemLibrary(name: "CStream", path: "Sources/CStream"),
        // Eight pixels to RGB565 in SSE2 or NEON (one inline function; no library to link).
        .systemLibrary(name: "CPack565", path: "Sources/CPack565"),
        // A turned card's sample interpolated and blended (SSE2, NEON; two inline functions).
        .systemLibrary(name: "CBilinear", path: "Sources/CBilinear"),
        // A glyph's blended rows written four pixels at a time (SSE2, NEON; one inline function).
        .systemLibrary(name: "CGlyph", path: "Sources/CGlyph"),

        .target(name: "MarqueeCore", dependencies: ["CFill", "CPrefetch", "CScan"]),
        .target(
            name: "MarqueeRender",
            dependencies: [
                "MarqueeCore", "CFill", "CFreeType", "CPixman", "CPNG", "CJPEG", "CFontconfig", "CHarfBuzz", "CFriBidi",
                "CUnibreak", "CBilinear", "CGlyph",
            ]
        ),
        .target(
            name: "MarqueeDisplay",
            dependencies: ["MarqueeCore", "CDRM", "CLinux", "CSDL2", "CSeat", "CStream", "CPack565"]),
        .target(name: "MarqueeProtocol", dependencies: ["MarqueeCore"]),
        .target(
            name: "MarqueeRuntime",
            dependencies: ["MarqueeCore", "MarqueeRender", "MarqueeDisplay", "MarqueeProtocol", "CLinux", "CMosquitto"]
        ),
        .executableTarget(
            name: "marquee",
            dependencies: [
                "MarqueeRuntime",
                "MarqueeRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .target(
            name: "MarqueeTestSupport", dependencies: ["MarqueeCore", "MarqueeRender"], path: "Tests/MarqueeTestSupport"
        ),
        .testTarget(name: "MarqueeCoreTests", dependencies: ["MarqueeCore", "MarqueeTestSupport"]),
        .testTarget(
            name: "MarqueeRenderTests", dependencies: ["MarqueeRender", "MarqueeTestSupport"],
            exclude: ["Goldens"]  // reference PNGs, read by path at test time
        ),
        .testTarget(name: "MarqueeDisplayTests", dependencies: ["MarqueeDisplay"]),
        .testTarget(name: "MarqueeProtocolTests", dependencies: ["MarqueeProtocol", "MarqueeTestSupport"]),
        .testTarget(
            name: "MarqueeRuntimeTests", dependencies: ["MarqueeRuntime", "MarqueeRender", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeCLITests", dependencies: ["marquee", "MarqueeTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
