import Benchmark
import MarqueeCore
import MarqueeRender

/// The hot pieces of a frame, each measured alone, with malloc counts (a steady-state frame should
/// allocate nothing). `marquee bench` measures whole frames; these say which piece costs what.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions], maxDuration: .seconds(3), maxIterations: 2_000)

    // What the harness itself allocates per measured run, to subtract from the counts below.
    Benchmark("Baseline: nothing") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(0) }
    }

    // A 1080p frame of the SPEC §10 deck at a fractional offset, drawn whole (it alternates with
    // one half a pixel away): every card's raster and text layer are cached, as in a slow scroll.
    Benchmark("Frame, steady state (1920x1080, cached cards)") { benchmark in
        let frame = try steadyFrames(cards: 10_000, offset: 5_000.5)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try frame.render() }
        benchmark.stopMeasurement()  // before the frame is freed
    }

    // The same frames drawn in bands of 32 rows straight into two alternating buffers (the band
    // renderer of issue 19): it too must allocate nothing in a steady frame.
    Benchmark("Frame in bands, steady state (1920x1080, cached cards, 32 rows)") { benchmark in
        let frames = try BandFrames(cards: 10_000, offset: 5_000.5)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try frames.render() }
        benchmark.stopMeasurement()  // before the frames are freed
    }

    // The scene and the renderer together, scrolling slowly among cached cards: what each vblank
    // costs `marquee run` in a slow scroll (apart from the copy to the display).
    Benchmark("Frame loop, slow scroll over cached cards (scene + render, 1920x1080)") { benchmark in
        let frames = try ScrollingFrames(cards: 10_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try frames.renderNext() }
        benchmark.stopMeasurement()  // before the frames are freed
    }

    // Cards never seen before: their text is laid out and drawn glyph by glyph (a fast scroll).
    Benchmark("Frame, new cards every frame (1920x1080)") { benchmark in
        let frames = try NewCardsFrames(cards: 200_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try frames.renderNext() }
        benchmark.stopMeasurement()  // before the frames are freed
    }

    // Transformed cards composited from their cached raster (scale 0.9, turned 0.05 rad).
    Benchmark("Compositor, a turned card (1840x160)") { benchmark in
        let frame = try turnedCardFrames()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try frame.render() }
        benchmark.stopMeasurement()  // before the frame is freed
    }

    for count in [1_000, 1_000_000] {
        let index = HeightIndex((0..<count).map { _ in HeightIndex.Entry(extent: 184, cards: 1, sections: 0) })
        let total = index.totals.extent
        Benchmark("Height index \(count): entry containing an offset") { benchmark in
            var offset = 0.37
            for _ in benchmark.scaledIterations {
                offset = (offset + 9_973.1).truncatingRemainder(dividingBy: total)
                blackHole(index.position(containingOffset: offset))
            }
        }
        Benchmark("Height index \(count): insert and remove in the middle") { benchmark in
            // A tree of its own, built before measuring (a copy of `index` would be copied on the
            // first change, inside the measurement).
            var copy = HeightIndex((0..<count).map { _ in HeightIndex.Entry(extent: 184, cards: 1, sections: 0) })
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                let position = (iteration * 7_919) % count
                copy.insert(HeightIndex.Entry(extent: 100, cards: 1, sections: 0), at: position)
                blackHole(copy.remove(at: position))
            }
            benchmark.stopMeasurement()
        }
    }
}
