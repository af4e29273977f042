# Seats in the VM (sourced by guest.sh; alone with MARQUEE_VM_ONLY=seat): Debian's seatd runs as
# root, Marquee as the ordinary user kiosk (uid 1000, in no video group; the card node is root's,
# mode 0600) with --seat, and the virtual terminal is switched away and back with chvt while a
# scroll runs.

wait_lines() { # FILE N: waits (up to 60 s) until FILE has at least N lines
    i=0
    while [ $i -lt 600 ] && [ "$(cat $1 2>/dev/null | wc -l)" -lt $2 ]; do sleep 0.1; i=$((i + 1)); done
}
switches() { awk '/ctxt_switches/ { sum += $2 } END { print sum }' /proc/$1/status; }
# Runs marquee as kiosk: no supplementary groups, its files in a directory it may write.
as_kiosk() { /tests/vmhelper as-user 1000 1000 "$@"; }
SEAT_DIR=/tmp/seat
mkdir -p $SEAT_DIR /run && chown 1000:1000 $SEAT_DIR

# Without --seat the ordinary user may not open the card: the control for the test after.
seat_control() {
    name=drm-seat-control
    chmod 600 $CARD && chown 0:0 $CARD
    as_kiosk $M run --backend drm </dev/null >/dev/null 2>$OUT/$name.log
    rc=$?
    show $OUT/$name.log
    # Without a seat manager, --seat fails clearly too (libseat's builtin backend needs root).
    as_kiosk $M run --backend drm --seat </dev/null >/dev/null 2>$OUT/$name.noseatd.log
    noseatd_rc=$?
    show $OUT/$name.noseatd.log
    if [ $rc -ne 77 ] || ! grep -q 'permission denied' $OUT/$name.log; then fail $name "without --seat: exit $rc, $(tail -n 1 $OUT/$name.log)"
    elif [ $noseatd_rc -ne 69 ] || ! grep -q 'no seat manager gave Marquee a seat' $OUT/$name.noseatd.log; then
        fail $name "--seat without seatd: exit $noseatd_rc, $(tail -n 1 $OUT/$name.noseatd.log)"
    else pass $name "kiosk without --seat: $(tail -n 1 $OUT/$name.log | cut -c1-80)…; --seat with no seatd: $(tail -n 1 $OUT/$name.noseatd.log | cut -c1-90)…"; fi
}

# A scroll runs 10 s under --seat; about 1.5 s in the VT is switched to 2, and 3 s later back to 1.
# Away: no frame, no wake-up, the process lives. Back: the mode set again, frames on the vblank
# grid at the offsets the curve has then (time went on), and the writeback shows the current frame.
seat_vt_switch() {
    name=drm-seat-vt-switch
    rm -f $SEAT_DIR/* && mkfifo $SEAT_DIR/in && chown 1000:1000 $SEAT_DIR/in
    seatd -g kiosk -l info >$OUT/$name.seatd.log 2>&1 &
    seatd_pid=$!
    i=0
    while [ $i -lt 100 ] && [ ! -S /run/seatd.sock ]; do sleep 0.1; i=$((i + 1)); done
    vt_before=$(/tests/vmhelper activevt)
    env HOME=$SEAT_DIR MARQUEE_SNAPSHOT_WRITEBACK=1 /tests/vmhelper as-user 1000 1000 $M run --seat --backend drm --mode 640x480 --exit-on-eof \
        --trace $SEAT_DIR/trace.jsonl <$SEAT_DIR/in >$OUT/$name.out 2>$OUT/$name.log &
    pid=$!
    # A marquee that died must make this test fail, not kill the suite with SIGPIPE on a write.
    trap '' PIPE
    exec 8>$SEAT_DIR/in
    echo 'scroll-to 40 duration=10' >&8
    wait_lines $SEAT_DIR/trace.jsonl 20
    sleep 1
    timeout 10 chvt 2
    away_rc=$?
    sleep 1
    vt_away=$(/tests/vmhelper activevt)
    frames_before=$(wc -l <$SEAT_DIR/trace.jsonl); switches_before=$(switches $pid)
    sleep 2
    frames_after=$(wc -l <$SEAT_DIR/trace.jsonl); switches_after=$(switches $pid)
    alive=$(kill -0 $pid 2>/dev/null && echo yes)
    timeout 10 chvt 1
    back_rc=$?
    vt_back=$(/tests/vmhelper activevt)
    printf 'wait idle\nsnapshot %s/after.png\n' $SEAT_DIR >&8
    sleep 10
    exec 8>&-
    trap - PIPE
    wait $pid
    rc=$?
    kill $seatd_pid; wait $seatd_pid 2>/dev/null
    cp $SEAT_DIR/trace.jsonl $OUT/$name.jsonl; cp $SEAT_DIR/after.png $OUT/$name.png 2>/dev/null
    show $OUT/$name.log
    show $OUT/$name.seatd.log
    software_snapshot $name-software 640x480 'scroll-to 40 duration=0.3\nwait idle\nsnapshot /out/'$name'-software.png\n'
    woke=$((switches_after - switches_before))
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc: $(tail -n 1 $OUT/$name.log)"
    elif [ "$alive" != yes ]; then fail $name "marquee died while away"
    elif [ $away_rc -ne 0 ] || [ "$vt_away" != "VT 2" ]; then fail $name "chvt 2: exit $away_rc, then $vt_away (from $vt_before)"
    elif [ $back_rc -ne 0 ] || [ "$vt_back" != "VT 1" ]; then fail $name "chvt 1: exit $back_rc, then $vt_back"
    elif ! grep -q 'went to another virtual terminal' $OUT/$name.log; then fail $name "the log does not say the seat went away"
    elif ! grep -q 'is back; showing Virtual-1 640x480' $OUT/$name.log; then fail $name "the log does not say the mode was set again"
    elif [ "$frames_after" -ne "$frames_before" ]; then fail $name "$((frames_after - frames_before)) frames drawn while away"
    elif [ $woke -gt 1 ]; then fail $name "woke $woke times in 2 s while away"
    elif ! grep -q 'writeback snapshots: through connector' $OUT/$name.log || grep -q "using Marquee's copy" $OUT/$name.log; then
        fail $name "the snapshot did not come from the writeback connector"
    elif ! result=$($M compare $OUT/$name-software.png $OUT/$name.png --diff $OUT/${name}_err.png); then fail $name "$result"
    elif summary=$(awk -v duration=10 -v grid=0.0002 -v min_gap=1.8 -f /tests/check-pause.awk $OUT/$name.jsonl); then
        pass $name "as uid 1000 without video; $vt_before, away: $vt_away with $woke wake-ups in 2 s, back: $vt_back; $summary; writeback after: $result"
    else fail $name "$summary"; fi
}

# --seat with --wait-for-display and the connector forced off: a VT switch while Marquee waits is
# answered (chvt returns; seatd would otherwise wait for the acknowledgement until a display came),
# and once the display comes the deck is shown.
seat_wait_for_display() {
    name=drm-seat-wait-for-display
    status=$(ls /sys/class/drm/card*-Virtual-1/status | head -n 1)
    rm -f $SEAT_DIR/* && mkfifo $SEAT_DIR/in && chown 1000:1000 $SEAT_DIR/in
    seatd -g kiosk -l info >$OUT/$name.seatd.log 2>&1 &
    seatd_pid=$!
    i=0
    while [ $i -lt 100 ] && [ ! -S /run/seatd.sock ]; do sleep 0.1; i=$((i + 1)); done
    echo off >$status
    trap '' PIPE
    env HOME=$SEAT_DIR /tests/vmhelper as-user 1000 1000 $M run --seat --backend drm --wait-for-display \
        --exit-on-eof --trace $SEAT_DIR/trace.jsonl <$SEAT_DIR/in >$OUT/$name.out 2>$OUT/$name.log &
    pid=$!
    exec 8>$SEAT_DIR/in
    sleep 4
    timeout 10 chvt 2
    away_rc=$?
    sleep 1
    timeout 10 chvt 1
    back_rc=$?
    sleep 1
    echo detect >$status
    printf 'scroll-to 5 duration=0.3\nwait idle\n' >&8
    sleep 6
    exec 8>&-
    trap - PIPE
    wait $pid
    rc=$?
    kill $seatd_pid; wait $seatd_pid 2>/dev/null
    cp $SEAT_DIR/trace.jsonl $OUT/$name.jsonl 2>/dev/null
    show $OUT/$name.log
    frames=$(cat $SEAT_DIR/trace.jsonl 2>/dev/null | wc -l)
    if [ $away_rc -ne 0 ]; then fail $name "chvt 2 while waiting for a display: exit $away_rc (the switch was not answered)"
    elif [ $back_rc -ne 0 ]; then fail $name "chvt 1: exit $back_rc"
    elif [ $rc -ne 0 ]; then fail $name "marquee exited $rc: $(tail -n 1 $OUT/$name.log)"
    elif ! grep -q 'waiting for a display' $OUT/$name.log; then fail $name "the log does not say it waits"
    elif ! grep -q '"event":"scroll-finished"' $OUT/$name.out; then fail $name "the scroll did not finish"
    elif [ "$frames" -lt 5 ]; then fail $name "only $frames frames"
    else pass $name "chvt 2 and 1 answered while waiting; then $frames frames and the scroll finished"; fi
}

if ! command -v seatd >/dev/null; then fail seat "no seatd in the guest"
else
    seat_control
    seat_vt_switch
    seat_wait_for_display
fi
