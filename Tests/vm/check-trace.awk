# Checks a Marquee frame trace (one JSON object per line) from a run that scrolled from rest with
# ease-in-out over `duration` seconds (awk -v duration=2 [-v grid=0.0002] [-v vblanks_per_frame=2]
# -f check-trace.awk):
#  - every frame's target is its timestamp plus one refresh period;
#  - during the scroll, consecutive timestamps are whole numbers of periods apart (vblank times),
#    to within `grid` seconds (when given), and at least vblanks_per_frame apart (default 1;
#    --max-fps raises it): no vblank drew two frames;
#  - at least 10 intervals during the scroll, so the spacing was seen.
# With -v max_glitches=N, up to N lone timestamps may be off the grid when the next one is back on
# it (vkms's vblank timer firing late once under a loaded host, the frame itself on time):
# counted as glitches, not as off-grid frames. Frames timed by the wrong vblanks stay off.
# Missed vblanks (a frame that took longer than its period) are counted and printed, not judged:
# they measure the machine's speed, which tests do not assert (benchmarks report it).
#  - every offset is the curve's value at that frame's target, within 0.5 px.
# Prints one summary line; exits 1 when a check fails.
function field(line, key,    at) {
    if (!match(line, "\"" key "\":[-0-9.e+]+")) return ""
    return substr(line, RSTART + length(key) + 3, RLENGTH - length(key) - 3) + 0
}
function offset_y(line,    parts) {
    if (!match(line, /"offset":\[[-0-9.e+]+,[-0-9.e+]+\]/)) return ""
    split(substr(line, RSTART + 10, RLENGTH - 11), parts, ",")
    return parts[2] + 0
}
function abs(x) { return x < 0 ? -x : x }
function on_grid(e,    k) { k = int(e / period + 0.5); return abs(e - k * period) <= grid }
{ n++; stamp[n] = field($0, "timestamp"); target[n] = field($0, "target"); offset[n] = offset_y($0) }
END {
    if (n < 10) { print "only " n " frames"; exit 1 }
    period = target[1] - stamp[1]
    if (vblanks_per_frame == "") vblanks_per_frame = 1
    if (max_glitches == "") max_glitches = 0
    bad_target = 0; repeated = 0; off_grid = 0; glitches = 0; ones = 0; skipped = 0
    min = 1e9; max = 0; sum = 0
    for (i = 1; i <= n; i++) if (abs(target[i] - stamp[i] - period) > 1e-6) bad_target++
    # The scroll starts at the last frame still at the start offset (its progress is 0); frames
    # before it (the first picture, then idle time) are not part of the animation.
    first = 1
    for (i = 1; i <= n; i++) if (offset[i] == offset[1]) first = i
    # The grid is that of the last timestamp on it: a lone late one is skipped over.
    last = stamp[first]
    for (i = first + 1; i <= n; i++) {
        d = stamp[i] - stamp[i - 1]
        k = int(d / period + 0.5)
        if (k < vblanks_per_frame) repeated++
        if (grid != "") {
            if (on_grid(stamp[i] - last)) last = stamp[i]
            else if (i < n && on_grid(stamp[i + 1] - last) && glitches < max_glitches) glitches++
            else { off_grid++; last = stamp[i] }
        }
        if (k == vblanks_per_frame) { ones++; sum += d; if (d < min) min = d; if (d > max) max = d }
        else if (k > vblanks_per_frame) skipped += k - vblanks_per_frame
    }
    final = offset[n]; worst = 0; checked = 0
    for (i = first; i <= n; i++) {
        f = (target[i] - target[first]) / duration
        if (f > 1) f = 1
        expected = offset[1] + (final - offset[1]) * f * f * (3 - 2 * f)
        e = abs(offset[i] - expected); if (e > worst) worst = e
        checked++
    }
    intervals = n - first
    printf "frames=%d period=%.4fms vblanks-per-frame=%d intervals=%d avg=%.4fms min=%.4fms max=%.4fms missed-vblanks=%d repeated=%d off-grid=%d glitches=%d bad-targets=%d curve-frames=%d curve-max-error=%.4fpx\n", \
        n, period * 1000, vblanks_per_frame, ones, ones ? sum / ones * 1000 : 0, min * 1000, max * 1000, skipped, repeated, off_grid, glitches, bad_target, checked, worst
    if (bad_target || repeated || off_grid || worst > 0.5 || intervals < 10 || checked < 10) exit 1
}
