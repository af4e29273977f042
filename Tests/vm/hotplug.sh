# Hotplug in the VM (sourced by display.sh): vkms's connector forced off and on through its sysfs
# `status` attribute, which (with Tests/vm/vkms-for-tests.patch) sends the hotplug uevent a display
# plugged in or out sends.
STATUS=$(ls /sys/class/drm/card*-Virtual-1/status | head -n 1)

# A scroll runs 10 s; the connector goes away about 1.5 s in and comes back 3 s later. While it is
# away: no frame, no wake-up. After: the mode set again, frames on the vblank grid at the offsets
# the curve has then, and the writeback shows the current frame exactly. Atomic runs at --rotate
# 180, which vkms's plane makes (vkms-rotation.patch): the modeset after the reconnect must give
# the plane its turn again.
hotplug_scroll() { # MODE (atomic|legacy)
    mode=$1; name=drm-$mode-hotplug-scroll
    if [ "$mode" = legacy ]; then export MARQUEE_DRM_NO_ATOMIC=1; rotate=0; else unset MARQUEE_DRM_NO_ATOMIC; rotate=180; fi
    rm -f /tmp/hotplug.in && mkfifo /tmp/hotplug.in
    MARQUEE_SNAPSHOT_WRITEBACK=1 $M run --backend drm --mode 640x480 --rotate $rotate --exit-on-eof --trace $OUT/$name.jsonl \
        </tmp/hotplug.in >$OUT/$name.out 2>$OUT/$name.log &
    pid=$!
    exec 8>/tmp/hotplug.in
    echo 'scroll-to 40 duration=10' >&8
    wait_lines $OUT/$name.jsonl 20
    sleep 1
    echo off >$STATUS
    sleep 1
    frames_before=$(wc -l <$OUT/$name.jsonl); switches_before=$(switches $pid)
    sleep 2
    frames_after=$(wc -l <$OUT/$name.jsonl); switches_after=$(switches $pid)
    echo on >$STATUS
    printf 'wait idle\nsnapshot /out/%s.png\n' $name >&8
    sleep 10
    exec 8>&-
    wait $pid
    rc=$?
    echo detect >$STATUS
    rm -f /tmp/hotplug.in
    unset MARQUEE_DRM_NO_ATOMIC
    show $OUT/$name.log
    software_snapshot $name-software 640x480 'scroll-to 40 duration=0.3\nwait idle\nsnapshot /out/'$name'-software.png\n' $rotate
    woke=$((switches_after - switches_before))
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
    elif ! grep -q '{"event":"display","connector":"Virtual-1","state":"disconnected"}' $OUT/$name.out; then fail $name "no disconnected event"
    elif ! grep -q '{"event":"display","connector":"Virtual-1","state":"connected","mode":"640x480@59.94"}' $OUT/$name.out; then fail $name "no connected event with the mode"
    elif [ "$frames_after" -ne "$frames_before" ]; then fail $name "$((frames_after - frames_before)) frames drawn while disconnected"
    elif [ $woke -gt 1 ]; then fail $name "woke $woke times in 2 s while disconnected"
    elif ! grep -q 'writeback snapshots: through connector' $OUT/$name.log || grep -q "using Marquee's copy" $OUT/$name.log; then
        fail $name "the snapshot did not come from the writeback connector"
    elif ! result=$($M compare $OUT/$name-software.png $OUT/$name.png --diff $OUT/${name}_err.png); then fail $name "$result"
    elif summary=$(awk -v duration=10 -v grid=0.0002 -v min_gap=1.8 -f /tests/check-pause.awk $OUT/$name.jsonl); then
        pass $name "$woke wake-ups in 2 s disconnected; $summary; writeback after reconnect: $result"
    else fail $name "$summary"; fi
}

# Started with the connector forced off: without --wait-for-display a clear error; with it,
# Marquee waits without waking and shows the deck once the display comes.
wait_for_display() {
    name=drm-atomic-wait-for-display
    echo off >$STATUS
    $M run --backend drm </dev/null >/dev/null 2>$OUT/$name.nowait.log
    nowait_rc=$?
    rm -f /tmp/wait.in && mkfifo /tmp/wait.in
    $M run --backend drm --wait-for-display --exit-on-eof --trace $OUT/$name.jsonl </tmp/wait.in \
        >$OUT/$name.out 2>$OUT/$name.log &
    pid=$!
    exec 8>/tmp/wait.in
    sleep 4
    switches_before=$(switches $pid)
    sleep 2
    switches_after=$(switches $pid)
    alive=$(kill -0 $pid 2>/dev/null && echo yes)
    echo detect >$STATUS
    printf 'scroll-to 5 duration=0.3\nwait idle\n' >&8
    sleep 6
    exec 8>&-
    wait $pid
    rc=$?
    rm -f /tmp/wait.in
    show $OUT/$name.log
    woke=$((switches_after - switches_before))
    if [ $nowait_rc -ne 75 ] || ! grep -q 'no display is connected' $OUT/$name.nowait.log; then fail $name "without --wait-for-display: exit $nowait_rc, $(cat $OUT/$name.nowait.log)"
    elif [ "$alive" != yes ]; then fail $name "marquee did not wait"
    elif [ $woke -gt 1 ]; then fail $name "woke $woke times in 2 s of waiting"
    elif [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
    elif ! grep -q 'waiting for a display' $OUT/$name.log; then fail $name "the log does not say it waits"
    elif ! grep -q '"event":"scroll-finished"' $OUT/$name.out; then fail $name "the scroll did not finish"
    elif [ "$(wc -l <$OUT/$name.jsonl)" -lt 5 ]; then fail $name "only $(wc -l <$OUT/$name.jsonl) frames"
    else pass $name "without the flag: $(grep -m1 'no display' $OUT/$name.nowait.log | cut -c1-90)…; with it: $woke wake-ups in 2 s waiting, then $(wc -l <$OUT/$name.jsonl) frames and the scroll finished"; fi
}

# Input ending while the display is unplugged, with a `wait idle` and a `snapshot` waiting for it:
# both are answered with an error and Marquee exits (--exit-on-eof) instead of waiting for a
# display that may never come back.
hotplug_end_of_input() {
    name=drm-atomic-hotplug-end-of-input
    rm -f /tmp/eof.in && mkfifo /tmp/eof.in
    $M run --backend drm --mode 640x480 --exit-on-eof </tmp/eof.in >$OUT/$name.out 2>$OUT/$name.log &
    pid=$!
    exec 8>/tmp/eof.in
    echo 'wait 0.5' >&8
    wait_lines $OUT/$name.out 1
    echo off >$STATUS
    sleep 1
    printf 'scroll-to 40 duration=1\nwait idle\nsnapshot /out/%s.png\n' $name >&8
    sleep 1
    exec 8>&-
    # It must end by itself within a few seconds of its input's end.
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 $pid 2>/dev/null || break; sleep 0.5; done
    alive=$(kill -0 $pid 2>/dev/null && echo yes)
    [ "$alive" = yes ] && kill $pid
    wait $pid
    rc=$?
    echo detect >$STATUS
    rm -f /tmp/eof.in
    show $OUT/$name.log
    if [ "$alive" = yes ]; then fail $name "still running 5 s after its input ended: $(cat $OUT/$name.out | tr '\n' ' ')"
    elif [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
    elif ! grep -q '"seq":3,"ok":false,"error":"wait idle: input ended while the display is gone (Virtual-1 is disconnected)' $OUT/$name.out; then fail $name "wait idle not refused: $(cat $OUT/$name.out | tr '\n' ' ')"
    elif ! grep -q '"seq":4,"ok":false,"error":"snapshot: input ended while the display is gone' $OUT/$name.out; then fail $name "snapshot not refused: $(cat $OUT/$name.out | tr '\n' ' ')"
    else pass $name "wait idle and snapshot refused at the end of input, exit 0"; fi
}

if [ -z "$STATUS" ]; then fail hotplug "no /sys/class/drm/card*-Virtual-1/status"
else
    hotplug_scroll atomic
    hotplug_scroll legacy
    hotplug_end_of_input
    wait_for_display
fi
