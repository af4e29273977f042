import Glibc

/// CLOCK_MONOTONIC in seconds (`clock_gettime`), the clock every frame time is on.
public enum MonotonicClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
