# Checks a Marquee frame trace from a run whose display was off for a while in the middle of an
# ease-in-out scroll from rest over `duration` seconds (awk -v duration=8 -v grid=0.0002
# -v min_gap=2.5 -f check-pause.awk):
#  - exactly one gap of at least `min_gap` seconds between consecutive frames (the display was
#    off: no frame drawn), and at least 10 frames on each side of it;
#  - on each side, timestamps are whole numbers of periods from that side's first frame (the
#    vblank grid) to within `grid`, and never less than one period apart (no vblank drew two
#    frames); across the gap the grid may move (the CRTC's vblanks start again when it comes
#    back on); frames timed from the clock after a slow frame are counted, at most a quarter;
#  - every frame's target is its timestamp plus one period;
#  - every offset is the curve's value at that frame's target, within 0.5 px, the frames after
#    the gap included: the animation went on while nothing was drawn.
# Prints one summary line; exits 1 when a check fails.
function field(line, key) {
    if (!match(line, "\"" key "\":[-0-9.e+]+")) return ""
    return substr(line, RSTART + length(key) + 3, RLENGTH - length(key) - 3) + 0
}
function offset_y(line,    parts) {
    if (!match(line, /"offset":\[[-0-9.e+]+,[-0-9.e+]+\]/)) return ""
    split(substr(line, RSTART + 10, RLENGTH - 11), parts, ",")
    return parts[2] + 0
}
function abs(x) { return x < 0 ? -x : x }
function on_grid(d,    r) { r = d / period; return abs(r - int(r + 0.5)) * period <= grid }
{ n++; stamp[n] = field($0, "timestamp"); target[n] = field($0, "target"); offset[n] = offset_y($0) }
END {
    if (n < 20) { print "only " n " frames"; exit 1 }
    period = target[1] - stamp[1]
    gaps = 0; gap_at = 0; clock_timed = 0; repeated = 0; bad_target = 0
    for (i = 1; i <= n; i++) if (abs(target[i] - stamp[i] - period) > 1e-6) bad_target++
    first = 1
    for (i = 1; i <= n; i++) if (offset[i] == offset[1]) first = i
    # Frames are held to vkms's vblank grid: a frame's timestamp is a whole number of periods
    # after the last frame on the grid. A frame the loop took more than a period after its vblank
    # (a slow frame before it, under TCG) is timed from the clock (DRMLinkState.takeDueFrame):
    # off the grid by design, and the frame after it is off by a fraction from it too; those are
    # counted and may be at most a quarter of the frames (a loaded host makes many). When the next frame is whole periods from
    # an off-grid one, the grid itself moved (vkms's vblank timer under a loaded host; and across
    # the gap, the CRTC's vblanks starting again): counted as a shift, and the grid follows it.
    shifts = 0
    last_on_grid = stamp[first]
    for (i = first + 1; i <= n; i++) {
        d = stamp[i] - stamp[i - 1]
        if (d >= min_gap) { gaps++; gap_at = i; gap = d; last_on_grid = stamp[i]; continue }
        if (on_grid(stamp[i] - last_on_grid)) {
            if (stamp[i] - last_on_grid < period - grid) repeated++
            last_on_grid = stamp[i]
        } else if (i < n && stamp[i + 1] - stamp[i] < min_gap && on_grid(stamp[i + 1] - stamp[i])) {
            shifts++
            last_on_grid = stamp[i]
        } else clock_timed++
    }
    final = offset[n]; worst = 0
    for (i = first; i <= n; i++) {
        f = (target[i] - target[first]) / duration
        if (f > 1) f = 1
        e = abs(offset[i] - (offset[1] + (final - offset[1]) * f * f * (3 - 2 * f)))
        if (e > worst) worst = e
    }
    before = gap_at - first; after = n - gap_at + 1
    printf "frames=%d gaps=%d gap=%.3fs frames-before=%d frames-after=%d first-after: offset %.1f at target %.4f; clock-timed=%d grid-shifts=%d repeated=%d bad-targets=%d curve-max-error=%.4fpx\n", \
        n, gaps, gap, before, after, offset[gap_at], target[gap_at] - target[first], clock_timed, shifts, repeated, bad_target, worst
    if (gaps != 1 || before < 10 || after < 10 || clock_timed * 4 > n - first || repeated || bad_target || worst > 0.5) exit 1
}
