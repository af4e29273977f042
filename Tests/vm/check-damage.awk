# Checks the damage that reached vkms (the "vkms-damage:" lines Tests/vm/vkms-damage.patch prints
# for each plane update) against Marquee's frame trace of the same run:
#   awk -v width=W -v height=H -v rotate=R -v clips=1 -f check-damage.awk KERNEL_LINES TRACE
# W and H are the frame's size as Marquee draws it (before --rotate); clips=0 for legacy
# modesetting, whose flips carry none.
#  - Marquee's commits are the plane updates of framebuffers other than the one the last line
#    shows (the console's, put back when Marquee exits);
#  - the first is the modeset, the second the first frame: both without clips (the whole frame);
#  - a frame whose cards, headers (places, opacity, ...) and background are its predecessor's
#    changed nothing: it commits nothing;
#  - every other frame commits once, to the other framebuffer than the last commit, with one clip
#    that covers the rows of every card or header new, gone or changed since the frame before
#    (panel columns for quarter turns), and exceeds them by at most `slack` rows (what the
#    renderer draws past a card for antialiasing; a header's glyphs may reach further);
#  - no commit is left over.
# Prints one summary line; exits 1 when a check fails.
function field(text, key) {
    if (!match(text, "\"" key "\":[-0-9.e+]+")) return ""
    return substr(text, RSTART + length(key) + 3, RLENGTH - length(key) - 3) + 0
}
function text_field(text, key) {
    if (!match(text, "\"" key "\":\"[^\"]*\"")) return ""
    return substr(text, RSTART + length(key) + 4, RLENGTH - length(key) - 5)
}
function fail(why) { if (!failed) reason = why; failed = 1 }
# Widens the expected rows by an item's rows (tight) and by what may be drawn past them (loose).
function cover(y, h, slack) {
    if (y < tlo) tlo = y
    if (y + h > thi) thi = y + h
    if (y - slack < llo) llo = y - slack
    if (y + h + slack > lhi) lhi = y + h + slack
}
BEGIN { if (slack_card == "") slack_card = 8; if (slack_header == "") slack_header = 64 }
NR == FNR {
    if (!match($0, /vkms-damage: /)) next
    split(substr($0, RSTART), part, " ")
    lines++
    fb[lines] = part[5]; nclips[lines] = part[7]
    if (part[9] == "none") merged[lines] = "none"
    else { x1[lines] = part[9]; y1[lines] = part[10]; x2[lines] = part[11]; y2[lines] = part[12] }
    next
}
{
    n++
    line = $0
    sub(/"frame":[0-9]+,"timestamp":[-0-9.e+]+,"target":[-0-9.e+]+,/, "", line)
    background[n] = text_field(line, "background")
    cards = line
    sub(/.*"cards":\[/, "", cards)
    sub(/\]\}$/, "", cards)
    count[n] = split(cards, entries, /\},\{/)
    if (cards == "") count[n] = 0
    for (i = 1; i <= count[n]; i++) {
        entry = entries[i]
        sub(/^\{/, "", entry); sub(/\}$/, "", entry)
        key = entry ~ /"header":/ ? "header " field(entry, "header") : "card " text_field(entry, "id")
        if (entry ~ /"leaving":true/) key = key " leaving"
        item[n "|" key] = entry
        keys[n "|" i] = key
    }
}
END {
    if (lines == 0) { print "no vkms-damage lines: is Tests/vm/vkms-damage.patch built in, log_damage set?"; exit 1 }
    if (n < 3) { print "only " n " frames traced"; exit 1 }
    console = fb[lines]
    for (k = 1; k <= lines; k++) if (fb[k] != console) marquee[++ours] = k
    panel_w = rotate == 90 || rotate == 270 ? height : width
    panel_h = rotate == 90 || rotate == 270 ? width : height
    at = 1
    if (ours < 2) fail("only " ours " commits of Marquee's framebuffers")
    else if (nclips[marquee[1]] != 0) fail("the modeset carried " nclips[marquee[1]] " clips")
    else if (nclips[marquee[2]] != 0) fail("the first frame carried " nclips[marquee[2]] " clips, not none (the whole frame)")
    at = 3; last_fb = fb[marquee[2]]; skipped = 0; clipped = 0; worst = 0
    for (f = 2; f <= n && !failed; f++) {
        tlo = 1e9; thi = -1e9; llo = 1e9; lhi = -1e9
        if (background[f] != background[f - 1]) { tlo = llo = 0; thi = lhi = height }
        for (i = 1; i <= count[f]; i++) {
            key = keys[f "|" i]; now = item[f "|" key]; before = (f - 1) "|" key
            s = key ~ /^header/ ? slack_header : slack_card
            if (before in item) {
                if (item[before] == now) continue
                cover(field(item[before], "y"), field(item[before], "h"), s)
            }
            cover(field(now, "y"), field(now, "h"), s)
        }
        for (i = 1; i <= count[f - 1]; i++) {
            key = keys[(f - 1) "|" i]
            if ((f "|" key) in item) continue
            s = key ~ /^header/ ? slack_header : slack_card
            cover(field(item[(f - 1) "|" key], "y"), field(item[(f - 1) "|" key], "h"), s)
        }
        if (tlo < 0) tlo = 0; if (thi > height) thi = height
        if (llo < 0) llo = 0; if (lhi > height) lhi = height
        if (tlo >= thi) {
            skipped++
            continue
        }
        if (at > ours) { fail("frame " f " changed rows " tlo "-" thi " but was not committed"); break }
        k = marquee[at++]
        if (fb[k] == last_fb) fail("frame " f " was committed to framebuffer " fb[k] " again (the one on screen)")
        last_fb = fb[k]
        if (clips == 0) {
            if (nclips[k] != 0 || x1[k] != 0 || y1[k] != 0 || x2[k] != panel_w || y2[k] != panel_h)
                fail("frame " f ": legacy flip with " nclips[k] " clips, damage " x1[k] "," y1[k] "-" x2[k] "," y2[k])
            continue
        }
        if (nclips[k] != 1) {
            fail("frame " f " (rows " tlo "-" thi ") carried " nclips[k] " clips, not 1" \
                (nclips[k] == 0 ? " (a whole-frame commit: one for a frame that changed nothing, before it?)" : ""))
            continue
        }
        # The clip as frame rows: panel rows, or panel columns turned back.
        if (rotate == 0) { c1 = y1[k]; c2 = y2[k]; full = x1[k] == 0 && x2[k] == panel_w }
        else if (rotate == 180) { c1 = height - y2[k]; c2 = height - y1[k]; full = x1[k] == 0 && x2[k] == panel_w }
        else if (rotate == 90) { c1 = height - x2[k]; c2 = height - x1[k]; full = y1[k] == 0 && y2[k] == panel_h }
        else { c1 = x1[k]; c2 = x2[k]; full = y1[k] == 0 && y2[k] == panel_h }
        if (!full) fail("frame " f ": the clip " x1[k] "," y1[k] "-" x2[k] "," y2[k] " does not span the panel across")
        else if (c1 > tlo || c2 < thi) fail("frame " f ": clip rows " c1 "-" c2 " miss changed rows " tlo "-" thi)
        else if (c1 < llo || c2 > lhi) fail("frame " f ": clip rows " c1 "-" c2 " exceed changed rows " tlo "-" thi " by more than the drawing reaches")
        else {
            clipped++
            if (c2 - c1 < height) partial++
            if (tlo - c1 > worst) worst = tlo - c1
            if (c2 - thi > worst) worst = c2 - thi
        }
    }
    if (!failed && at <= ours) fail(ours - at + 1 " commits more than the frames that changed")
    printf "frames=%d skipped=%d commits=%d clipped=%d partial=%d widest-margin=%d rows%s\n", n, skipped, ours, clipped, partial, worst, failed ? ": " reason : ""
    exit failed
}
