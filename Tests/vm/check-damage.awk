# Checks the damage that reached vkms (the "vkms-damage:" lines Tests/vm/vkms-damage.patch prints
# for each plane update, each followed by one "vkms-damage-clip:" line a clip) against Marquee's
# frame trace of the same run:
#   awk -v width=W -v height=H -v rotate=R -v clips=1 [-v multi=1] -f check-damage.awk KERNEL_LINES TRACE
# W and H are the frame's size as Marquee draws it (before --rotate); clips=0 for legacy
# modesetting, whose flips carry none; multi=1: at least one frame must change places far apart
# and reach the kernel as several clips.
#  - Marquee's commits are the plane updates of framebuffers other than the one the last line
#    shows (the console's, put back when Marquee exits);
#  - the first is the modeset, the second the first frame: both without clips (the whole frame);
#  - a frame whose cards, headers (places, opacity, ...) and background are its predecessor's
#    changed nothing: it commits nothing;
#  - every other frame commits once, to the other framebuffer than the last commit, with one clip
#    per band of changed rows (at most 4; panel columns for quarter turns), each across the whole
#    panel: together they cover the rows of every card or header new, gone or changed since the
#    frame before, and each lies within those rows widened by `slack` (what the renderer draws
#    past a card for antialiasing; a header's glyphs may reach further), places closer than `gap`
#    rows counting as one (the renderer draws them as one band). So two cards changed far apart
#    must come as two clips: one clip over both would cover the unchanged rows between;
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
# Adds an item's rows: tight (what changed) and loose (what may be drawn past it).
function cover(y, h, slack) {
    ntight++; ta[ntight] = y; tb[ntight] = y + h
    nloose++; la[nloose] = y - slack; lb[nloose] = y + h + slack
}
# Sorts intervals a[1..count], b[1..count] by start (a few: insertion sort).
function sort_intervals(a, b, count,    i, j, ka, kb) {
    for (i = 2; i <= count; i++) {
        ka = a[i]; kb = b[i]
        for (j = i - 1; j >= 1 && a[j] > ka; j--) { a[j + 1] = a[j]; b[j + 1] = b[j] }
        a[j + 1] = ka; b[j + 1] = kb
    }
}
BEGIN { if (slack_card == "") slack_card = 8; if (slack_header == "") slack_header = 64; if (gap == "") gap = 16 }
NR == FNR {
    if (match($0, /vkms-damage-clip: /)) {
        split(substr($0, RSTART), part, " ")
        if (lines == 0 || part[3] != fb[lines]) { stray++; next }
        c = ++got[lines]
        cx1[lines, c] = part[4]; cy1[lines, c] = part[5]; cx2[lines, c] = part[6]; cy2[lines, c] = part[7]
        next
    }
    if (!match($0, /vkms-damage: /)) next
    split(substr($0, RSTART), part, " ")
    lines++
    fb[lines] = part[5]; nclips[lines] = part[7]; got[lines] = 0
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
    if (stray) fail(stray " clip lines without their commit's line")
    at = 3; last_fb = fb[marquee[2]]; skipped = 0; clipped = 0; partial = 0; several = 0; worst = 0
    for (f = 2; f <= n && !failed; f++) {
        ntight = 0; nloose = 0
        if (background[f] != background[f - 1]) cover(0, height, 0)
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
        # The changed rows within the frame, merged: `tight` must be covered, `loose` (places
        # closer than `gap` joined) bounds what a clip may cover.
        for (i = 1; i <= ntight; i++) {
            if (ta[i] < 0) ta[i] = 0; if (tb[i] > height) tb[i] = height
            if (la[i] < 0) la[i] = 0; if (lb[i] > height) lb[i] = height
        }
        sort_intervals(ta, tb, ntight); sort_intervals(la, lb, nloose)
        changed = 0; m = 0
        for (i = 1; i <= ntight; i++) {
            if (ta[i] >= tb[i]) continue
            if (m && ta[i] <= mb[m]) { if (tb[i] > mb[m]) mb[m] = tb[i] }
            else { m++; ma[m] = ta[i]; mb[m] = tb[i] }
        }
        for (i = 1; i <= m; i++) changed += mb[i] - ma[i]
        groups = 0
        for (i = 1; i <= nloose; i++) {
            if (groups && la[i] <= gb[groups] + gap) { if (lb[i] > gb[groups]) gb[groups] = lb[i] }
            else { groups++; ga[groups] = la[i]; gb[groups] = lb[i] }
        }
        rows = m ? ma[1] "-" mb[m] : ""
        if (m == 0) {
            skipped++
            continue
        }
        if (at > ours) { fail("frame " f " changed rows " rows " but was not committed"); break }
        k = marquee[at++]
        if (fb[k] == last_fb) fail("frame " f " was committed to framebuffer " fb[k] " again (the one on screen)")
        last_fb = fb[k]
        if (clips == 0) {
            if (nclips[k] != 0 || x1[k] != 0 || y1[k] != 0 || x2[k] != panel_w || y2[k] != panel_h)
                fail("frame " f ": legacy flip with " nclips[k] " clips, damage " x1[k] "," y1[k] "-" x2[k] "," y2[k])
            continue
        }
        if (nclips[k] == 0) {
            fail("frame " f " (rows " rows ") carried no clips (a whole-frame commit: one for a frame that changed nothing, before it?)")
            continue
        }
        if (got[k] != nclips[k]) { fail("frame " f ": " nclips[k] " clips counted but " got[k] " printed"); continue }
        if (nclips[k] > 4) { fail("frame " f " carried " nclips[k] " clips, more than the 4 bands kept"); continue }
        # Each clip as frame rows: panel rows, or panel columns turned back.
        covered = 0
        for (c = 1; c <= nclips[k]; c++) {
            if (rotate == 0) { c1 = cy1[k, c]; c2 = cy2[k, c]; full = cx1[k, c] == 0 && cx2[k, c] == panel_w }
            else if (rotate == 180) { c1 = height - cy2[k, c]; c2 = height - cy1[k, c]; full = cx1[k, c] == 0 && cx2[k, c] == panel_w }
            else if (rotate == 90) { c1 = height - cx2[k, c]; c2 = height - cx1[k, c]; full = cy1[k, c] == 0 && cy2[k, c] == panel_h }
            else { c1 = cx1[k, c]; c2 = cx2[k, c]; full = cy1[k, c] == 0 && cy2[k, c] == panel_h }
            clip = cx1[k, c] "," cy1[k, c] "-" cx2[k, c] "," cy2[k, c]
            if (!full) { fail("frame " f ": the clip " clip " does not span the panel across"); break }
            if (c1 >= c2) { fail("frame " f ": the clip " clip " is empty"); break }
            inside = 0
            for (g = 1; g <= groups; g++) if (c1 >= ga[g] && c2 <= gb[g]) inside = 1
            if (!inside) { fail("frame " f ": clip rows " c1 "-" c2 " cover rows that did not change (changed: " rows ", in " m " places)"); break }
            ca[c] = c1; cb[c] = c2; covered += c2 - c1
        }
        if (failed) break
        sort_intervals(ca, cb, nclips[k])
        for (i = 1; i <= m && !failed; i++) {
            pos = ma[i]
            while (pos < mb[i]) {
                next_pos = pos
                for (c = 1; c <= nclips[k]; c++) if (ca[c] <= pos && cb[c] > next_pos) next_pos = cb[c]
                if (next_pos == pos) { fail("frame " f ": changed row " pos " is in no clip (clips " nclips[k] ", changed " ma[i] "-" mb[i] ")"); break }
                pos = next_pos
            }
        }
        if (failed) break
        clipped++
        if (covered < height) partial++
        if (nclips[k] > 1) several++
        if (covered - changed > worst) worst = covered - changed
    }
    if (!failed && multi && several == 0) fail("no frame reached the kernel as several clips")
    if (!failed && at <= ours) fail(ours - at + 1 " commits more than the frames that changed")
    printf "frames=%d skipped=%d commits=%d clipped=%d partial=%d several-clips=%d widest-margin=%d rows%s\n", n, skipped, ours, clipped, partial, several, worst, failed ? ": " reason : ""
    exit failed
}
