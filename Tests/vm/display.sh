# The VM tests of a display's real life (sourced by guest.sh; alone with MARQUEE_VM_ONLY=display):
# `display off` and `on`, the damage each commit carries (Tests/vm/damage.sh), then hotplug
# (Tests/vm/hotplug.sh).

# Active state of every CRTC from the atomic state in debugfs ("active=1 active=0"), when there.
crtc_active() { grep -h 'active=' /sys/kernel/debug/dri/*/state 2>/dev/null | tr -d '\t' | tr '\n' ' '; }
# Waits (up to 60 s) until FILE has at least N lines: Marquee takes seconds to start under TCG.
wait_lines() { # FILE N
    i=0
    while [ $i -lt 600 ] && [ "$(cat $1 2>/dev/null | wc -l)" -lt $2 ]; do sleep 0.1; i=$((i + 1)); done
}
switches() { awk '/ctxt_switches/ { sum += $2 } END { print sum }' /proc/$1/status; }

# A scroll runs 8 s; the display goes off about 1.5 s in and on 4 s later. While off: the CRTC is off,
# no frame is drawn and Marquee does not wake (no vblank events, no timer). After on: frames on
# the new vblank grid, at the offsets the curve has then (time went on).
display_off_on() { # MODE (atomic|legacy)
    mode=$1; name=drm-$mode-display-off-on
    if [ "$mode" = legacy ]; then export MARQUEE_DRM_NO_ATOMIC=1; expected='off (DPMS off)'
    else unset MARQUEE_DRM_NO_ATOMIC; expected='off (CRTC ACTIVE=0)'; fi
    rm -f /tmp/display.in && mkfifo /tmp/display.in
    $M run --backend drm --mode 640x480 --exit-on-eof --trace $OUT/$name.jsonl </tmp/display.in \
        >$OUT/$name.out 2>$OUT/$name.log &
    pid=$!
    exec 8>/tmp/display.in
    # A gentle scroll (40 cards in 8 s): under TCG a frame with many cards entering can take longer
    # than a period, and the frame after it is then timed from the clock, off the vblank grid.
    echo 'scroll-to 40 duration=8' >&8
    wait_lines $OUT/$name.jsonl 20
    sleep 1
    echo 'display off' >&8
    sleep 1
    active_off=$(crtc_active)
    frames_before=$(wc -l <$OUT/$name.jsonl); switches_before=$(switches $pid)
    sleep 3
    frames_after=$(wc -l <$OUT/$name.jsonl); switches_after=$(switches $pid)
    echo 'display on' >&8
    sleep 1
    active_on=$(crtc_active)
    printf 'wait idle\n' >&8
    sleep 5
    exec 8>&-
    wait $pid
    rc=$?
    rm -f /tmp/display.in
    unset MARQUEE_DRM_NO_ATOMIC
    show $OUT/$name.log
    woke=$((switches_after - switches_before))
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
    elif ! grep -q "Virtual-1 $expected" $OUT/$name.log; then fail $name "the log does not say '$expected'"
    elif [ -n "$active_off" ] && echo "$active_off" | grep -q 'active=1'; then fail $name "a CRTC was still active while off: $active_off"
    elif [ -n "$active_on" ] && ! echo "$active_on" | grep -q 'active=1'; then fail $name "no CRTC active after on: $active_on"
    elif [ "$frames_after" -ne "$frames_before" ]; then fail $name "$((frames_after - frames_before)) frames drawn while off"
    elif [ $woke -gt 1 ]; then fail $name "woke $woke times in 3 s while off"
    elif ! grep -q '"event":"scroll-finished"' $OUT/$name.out; then fail $name "the scroll did not finish"
    elif summary=$(awk -v duration=8 -v grid=0.0002 -v min_gap=2.5 -f /tests/check-pause.awk $OUT/$name.jsonl); then
        pass $name "off: ${active_off:-no debugfs state}, $woke wake-ups in 3 s; on: ${active_on:-?}; $summary"
    else fail $name "$summary"; fi
}
display_off_on atomic
display_off_on legacy

# fbdev: `display off` powers the panel down with FBIOBLANK where the driver can. DRM's fbdev
# emulation (/dev/fb0 on vkms) turns the CRTC off; vfb has no blank operation, so frames stop and
# the log says the panel keeps the last one. Either way no frame is drawn while off (one gap of
# the time it was off between the trace's frames), and frames come back after on (under TCG the
# emulation's slow frames may let the scroll end before the display goes off: then only the
# redraw at on follows). The fifo is opened read-write before Marquee starts (and closed in Marquee's
# copy of the descriptors, or its input would never end), so a Marquee that fails at start
# cannot block the script or kill it with SIGPIPE.
fbdev_display_off_on() { # NAME DEVICE EXPECTED_LOG CHECK_CRTC (yes|no)
    name=$1; device=$2; expected=$3; check_crtc=$4
    rm -f /tmp/display.in && mkfifo /tmp/display.in
    exec 8<>/tmp/display.in
    $M run --backend fbdev --device $device --max-fps 30 --exit-on-eof --trace $OUT/$name.jsonl \
        </tmp/display.in >$OUT/$name.out 2>$OUT/$name.log 8<&- &
    pid=$!
    echo 'scroll-to 40 duration=14' >&8
    wait_lines $OUT/$name.out 1
    sleep 3
    echo 'display off' >&8
    sleep 1
    active_off=$(crtc_active); switches_before=$(switches $pid)
    sleep 2
    switches_after=$(switches $pid)
    echo 'display on' >&8
    sleep 1
    active_on=$(crtc_active)
    printf 'wait idle\n' >&8
    exec 8>&-
    wait $pid
    rc=$?
    rm -f /tmp/display.in
    show $OUT/$name.log
    woke=$((switches_after - switches_before))
    # The longest gap between frames, and the frames on each side of it.
    gap=$(awk '{ match($0, /"timestamp":[0-9.e+-]+/); t = substr($0, RSTART + 12, RLENGTH - 12) + 0
                 n++; if (n > 1 && t - last > longest) { longest = t - last; at = n - 1 } last = t }
               END { printf "%.2f %d %d", longest, at, n - at }' $OUT/$name.jsonl)
    set -- $gap
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc: $(tail -1 $OUT/$name.log)"
    elif ! grep -q "$expected" $OUT/$name.log; then fail $name "the log does not say '$expected'"
    elif [ "$check_crtc" = yes ] && ! echo "$active_off" | grep -q 'active=0'; then fail $name "no CRTC off while blanked: $active_off"
    elif [ "$check_crtc" = yes ] && ! echo "$active_on" | grep -q 'active=1'; then fail $name "no CRTC active after on: $active_on"
    elif [ $woke -gt 1 ]; then fail $name "woke $woke times in 2 s while off"
    elif ! awk -v g=$1 'BEGIN { exit !(g >= 2.5) }'; then fail $name "no gap of the time it was off: the longest between frames is $1 s"
    elif [ $2 -lt 10 ] || [ $3 -lt 1 ]; then fail $name "$2 frames before the gap and $3 after"
    elif ! grep -q '"event":"scroll-finished"' $OUT/$name.out; then fail $name "the scroll did not finish"
    else pass $name "off: ${active_off:-no debugfs state}, $woke wake-ups in 2 s; no frame for $1 s; on: ${active_on:-?}; frames $2 before, $3 after"; fi
}
fbdev_display_off_on fbdev-vkms-display-off-on /dev/fb0 '/dev/fb0 off (FBIOBLANK powerdown)' yes
[ -e /dev/fb1 ] || insmod /lib/modules/vfb.ko vfb_enable=1 videomemorysize=4194304
# The mode the suite's last vfb test leaves (XBGR8888, 2 pages): setting 16 bpp after it gets
# RGB555 (vfb keeps the alpha length), which Marquee does not drive.
/tests/vmhelper fbmode /dev/fb1 480 640 1280 32 0 | sed 's/^/    /'
fbdev_display_off_on fbdev-vfb-display-off-on /dev/fb1 'cannot blank /dev/fb1 (Invalid argument)' no

# Damage clips and skipped commits: Tests/vm/damage.sh.
. /tests/damage.sh

# Hotplug: Tests/vm/hotplug.sh.
. /tests/hotplug.sh
