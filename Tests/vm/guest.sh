#!/bin/sh
# The VM tests, run by /init inside the QEMU guest (busybox sh). Each test prints one line,
# "PASS name: details" or "FAIL name: why"; the host counts them. Artifacts (traces, logs,
# snapshots) go to /out, which the host unpacks into .build/vm/results.
M=/marquee/marquee
OUT=/out
CARD=/dev/dri/card0
mkdir -p $OUT

pass() { echo "PASS $1: $2"; }
fail() { echo "FAIL $1: $2"; }
# The log lines of a run, for the console (indented, so they are not taken for results).
show() { sed 's/^/    /' "$1"; }

# How `--rotate 180` is made with MODE's modesetting, as the log says it: by vkms's primary plane
# (atomic) or while copying (legacy sets no plane property).
turned_by() { if [ "$1" = atomic ]; then echo 'in the display plane'; else echo 'while copying'; fi; }
# The `rotation` of the card's first plane (vkms's primary) in the kernel's atomic state, as a
# hexadecimal mask: 1 is rotate-0, 4 rotate-180.
primary_rotation() { awk '/^plane\[/ { n++ } n == 1 && /rotation=/ { sub(/.*rotation=/, ""); print; exit }' /sys/kernel/debug/dri/0/state; }
# vkms-rotation.patch's switch: with 1 written, the primary plane lists rotate-180 but refuses it.
REFUSE_ROTATION=/sys/module/vkms/parameters/refuse_rotation

software_snapshot() { # NAME SIZE SCRIPT [ROTATE]
    printf "$3" | $M run --backend software --size "$2" --rotate "${4:-0}" >/dev/null 2>$OUT/$1.log
}

# A marquee that has run far longer than any test here is hung (a frame waiting for an event that
# never comes, say). Without this the suite would sit until qemu's timeout and bring nothing back;
# instead the hang is a FAIL with what the process was doing (its kernel wait, its syscall, the
# last lines of its log and trace, the CRTCs' state), it is stopped, and the suite goes on.
hang_watch() {
    beat=0
    while sleep 5; do
        # Every 30 s, what runs (indented: not a result). Reading another process's /proc files
        # can block behind its memory lock, so the heartbeat below is a loop of its own.
        beat=$((beat + 1))
        [ $((beat % 6)) -eq 0 ] && echo "    running: $(ps -o pid,stat,args | grep -E 'marquee|seatd|sleep|chvt' | grep -v grep | tr -s ' ' | tr '\n' ';' | cut -c1-300)"
        for pid in $(pidof marquee); do
            started=$(awk '{ print $22 }' /proc/$pid/stat 2>/dev/null) || continue
            [ -n "$started" ] || continue
            age=$(awk -v s=$started '{ print int($1 - s / 100) }' /proc/uptime)
            [ "$age" -gt 120 ] || continue
            echo "FAIL hang: marquee $pid ran ${age} s: $(tr '\0' ' ' </proc/$pid/cmdline)"
            echo "    state: $(grep State /proc/$pid/status); wchan: $(cat /proc/$pid/wchan); syscall: $(cat /proc/$pid/syscall)"
            for task in /proc/$pid/task/*; do echo "    task ${task##*/}: $(cat $task/comm) $(cat $task/wchan) [$(cat $task/syscall)]"; done
            sed 's/^/    stack: /' /proc/$pid/stack 2>/dev/null
            for fd in 1 2; do
                target=$(readlink /proc/$pid/fd/$fd)
                case "$target" in /out/* | /tmp/*) tail -n 15 "$target" | sed "s|^|    fd $fd $target: |" ;; esac
            done
            for trace in $(tr '\0' '\n' </proc/$pid/cmdline | grep '\.jsonl$'); do
                for file in $trace ${trace%.jsonl}.*.jsonl; do
                    [ -e "$file" ] && echo "    $file: $(wc -l <$file) frames; last: $(tail -n 1 $file | cut -c1-160)"
                done
            done
            grep -h -E 'crtc|active|enable|fb=' /sys/kernel/debug/dri/*/state 2>/dev/null | tr -d '\t' | sed 's/^/    drm: /'
            kill -TERM $pid; sleep 3; kill -KILL $pid 2>/dev/null
        done
    done
}
hang_watch &
# A heartbeat every 30 s that touches no other process: if it stops, the guest itself stalled
# (its timers or scheduler), not a test. New kernel messages come with it (the console shows
# errors only: the kernel runs with `quiet`).
heartbeat() {
    kernel_lines=$(dmesg | wc -l)
    while sleep 30; do
        echo "    heartbeat: uptime $(cut -d' ' -f1 /proc/uptime)"
        now_lines=$(dmesg | wc -l)
        [ "$now_lines" -gt "$kernel_lines" ] && dmesg | tail -n $((now_lines - kernel_lines > 8 ? 8 : now_lines - kernel_lines)) | sed 's/^/    kernel: /'
        kernel_lines=$now_lines
    done
}
heartbeat &

# MARQUEE_VM_ONLY=display on the host (marquee.only=display on the kernel's command line) runs
# only the tests of Tests/vm/display.sh, to try them without the whole suite (seat: seat.sh's;
# damage: damage.sh's; outputs: outputs.sh's; fbdev: fbdev.sh's).
ONLY=$(sed -n 's/.*marquee\.only=\([a-z]*\).*/\1/p' /proc/cmdline)
if [ -n "$ONLY" ]; then
    . /tests/$ONLY.sh
    exit 0
fi

# --- DRM: atomic and legacy -------------------------------------------------------------------
drm_tests() { # MODE (atomic|legacy)
    mode=$1
    if [ "$mode" = legacy ]; then export MARQUEE_DRM_NO_ATOMIC=1; else unset MARQUEE_DRM_NO_ATOMIC; fi

    # A scripted scroll, traced: timestamps on vkms's vblanks, offsets on the curve at each target.
    # 640x480 (59.94 Hz): under TCG the guest CPU is several times slower than a board's, and at
    # 1024x768 the busiest frames of the scroll come close to a whole period there. Missed vblanks
    # are printed, not judged: they measure the (shared, emulated) machine, not Marquee.
    name=drm-$mode-trace
    printf 'wait 0.5\nscroll-to 40 duration=2\nwait idle\nquit\n' |
        $M run --backend drm --mode 640x480 --trace $OUT/$name.jsonl >$OUT/$name.out 2>$OUT/$name.log
    rc=$?
    show $OUT/$name.log
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
    elif ! grep -q "$mode modesetting" $OUT/$name.log; then fail $name "the log does not say $mode modesetting"
    elif summary=$(awk -v duration=2 -v grid=0.0002 -f /tests/check-trace.awk $OUT/$name.jsonl); then
        pass $name "$summary"
    else fail $name "$summary"; fi

    # What vkms scanned out (read back through its writeback connector) against the software
    # backend's rendering of the same deck at the same offset. 1366x768: a width that is not whole
    # 64-byte lines, so the dumb buffer's rows are padded (pitch 5,504 bytes for 5,464) and vkms
    # must read them by the pitch Marquee asked for. At 180, atomic modesetting has the plane turn
    # the frames (vkms-rotation.patch gives vkms's primary plane rotate-180) and puts the plane's
    # rotation back at exit; legacy modesetting turns them while copying. "180-refused": vkms lists
    # the plane's half turn but refuses it (its refuse_rotation parameter), so atomic modesetting
    # must fall back to turning while copying, and say so.
    cases="0:1024x768 90:1024x768 180:1024x768 0:1366x768"
    [ $mode = atomic ] && cases="$cases 180-refused:1024x768"
    for case in $cases; do
        rotate=${case%%:*} size=${case#*:} refused=
        name=drm-$mode-writeback-rotate$rotate
        [ $size = 1024x768 ] || name=$name-$size
        [ $rotate = 180-refused ] && rotate=180 refused=1 && echo 1 >$REFUSE_ROTATION
        script='scroll-to 7 duration=0.3\nwait idle\nsnapshot /out/'$name'.png\nquit\n'
        printf "$script" | MARQUEE_SNAPSHOT_WRITEBACK=1 $M run --backend drm --mode $size --rotate $rotate \
            >$OUT/$name.out 2>$OUT/$name.log
        rc=$?
        [ -n "$refused" ] && echo 0 >$REFUSE_ROTATION
        how=$(turned_by $mode)
        [ -n "$refused" ] && how='while copying'
        show $OUT/$name.log
        software_snapshot software-$name $size \
            'scroll-to 7 duration=0.3\nwait idle\nsnapshot /out/software-'$name'.png\n' $rotate
        if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
        elif ! grep -q 'writeback snapshots: through connector' $OUT/$name.log ||
            grep -q "using Marquee's copy" $OUT/$name.log; then fail $name "the snapshot did not come from the writeback connector"
        elif [ -n "$refused" ] && ! grep -q 'the plane refused to turn the frames' $OUT/$name.log; then
            fail $name "the log does not say the plane refused the turn"
        elif [ $rotate = 180 ] && ! grep -q "rotating by 180° $how" $OUT/$name.log; then
            fail $name "the log does not say the frames were turned $how"
        elif [ $rotate = 180 ] && [ "$(primary_rotation)" != 1 ]; then
            fail $name "the primary plane's rotation is $(primary_rotation) after exit, not rotate-0 (1) as found"
        elif result=$($M compare $OUT/software-$name.png $OUT/$name.png --diff $OUT/${name}_err.png); then
            pass $name "$result"
        else fail $name "$result"; fi
    done

    # SIGTERM in the middle of an animation puts back the CRTC found at start (mode and fb).
    restore_test drm-$mode-sigterm-restores sigterm
    # A second instance while the first holds master fails clearly; the first keeps running.
    name=drm-$mode-second-instance
    mkfifo /tmp/first.in
    $M run --backend drm --exit-on-eof </tmp/first.in >$OUT/$name.first.out 2>$OUT/$name.first.log &
    first=$!
    exec 7>/tmp/first.in
    echo 'scroll-to 20 duration=1' >&7
    sleep 2
    $M run --backend drm </dev/null >/dev/null 2>$OUT/$name.log
    rc=$?
    show $OUT/$name.log
    echo 'scroll-to 0 duration=0.2' >&7
    echo 'wait idle' >&7
    exec 7>&-
    wait $first
    first_rc=$?
    rm -f /tmp/first.in
    replies=$(grep -c '"ok":true' $OUT/$name.first.out)
    if [ $rc -ne 75 ]; then fail $name "the second instance exited $rc, not 75 (busy: try again later)"
    elif ! grep -q 'is in use: another program is its DRM master' $OUT/$name.log; then fail $name "no clear error: $(cat $OUT/$name.log)"
    elif [ $first_rc -ne 0 ] || [ "$replies" -ne 3 ]; then fail $name "the first instance exited $first_rc with $replies of 3 replies"
    else pass $name "second: $(tail -n 1 $OUT/$name.log | cut -c1-120)…; first answered all 3 commands and exited 0"; fi
}

# Every way out puts back the CRTC found at start (mode and fb): a helper sets the CRTC to a mode
# and framebuffer of its own and lets go of DRM master; Marquee takes over (at the preferred mode)
# and is stopped; the helper then checks what the CRTC shows.
restore_test() { # NAME HOW (sigterm, sigint, quit or eof)
    name=$1; how=$2
    rm -f /tmp/checked
    /tests/vmhelper hold $CARD 800x600 /tmp/checked >$OUT/$name.helper 2>&1 &
    helper=$!
    sleep 1
    case $how in
    sigterm | sigint)
        (printf 'scroll-to end duration=30\n'; sleep 30) | $M run --backend drm >/dev/null 2>$OUT/$name.log &
        marquee=$!
        sleep 3
        if [ $how = sigterm ]; then kill -TERM $marquee; else kill -INT $marquee; fi
        wait $marquee ;;
    quit)
        (printf 'scroll-to end duration=30\n'; sleep 3; echo quit) | $M run --backend drm >/dev/null 2>$OUT/$name.log ;;
    eof)
        (printf 'scroll-to 5 duration=0.5\nwait idle\n'; sleep 2) | $M run --backend drm --exit-on-eof >/dev/null 2>$OUT/$name.log ;;
    esac
    rc=$?
    touch /tmp/checked
    wait $helper
    helper_rc=$?
    show $OUT/$name.log
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc after $how"
    elif [ $helper_rc -ne 0 ]; then fail $name "$(tail -n 1 $OUT/$name.helper)"
    else pass $name "$(tail -n 1 $OUT/$name.helper)"; fi
}

drm_tests atomic
drm_tests legacy
unset MARQUEE_DRM_NO_ATOMIC
restore_test drm-atomic-sigint-restores sigint
restore_test drm-atomic-quit-restores quit
restore_test drm-atomic-eof-restores eof

# A hostile session on the real display: absurd numbers, truncated JSON, invalid UTF-8, a NUL, a
# 70,000-byte line, unknown commands, files it may not have, a failing batch. Every line gets
# exactly one answer, Marquee keeps running, scrolls afterwards, and `quit` restores the CRTC.
hostile_session() {
    printf 'scroll-to 10 duration=1e308\nscroll-to nan\nscroll-to inf duration=inf\nscroll-to -5\n'
    printf 'scroll-to 99999999999999999999\nscroll-by 1e400px\nwait -1\nwait nan\n'
    printf 'insert 0 {"id":\ninsert 0 {"id":"x","title":"\377\376"}\nupdate id:none {"title":"a"}\n'
    printf 'delete 100000\nmove 0 99999\ndelete-section 42\nfrobnicate\n'
    printf 'load /nonexistent.json\nload /etc/passwd\nsnapshot /nonexistent/dir/a.png\n'
    printf 'scroll\000to 3\n'
    printf 'batch\ninsert 0 {"id":"b1","title":"B"}\ndelete 99999\ncommit\n'
    awk 'BEGIN { s = "scroll-to "; while (length(s) < 70000) s = s "9"; print s }'
    printf 'scroll-to 5 duration=0.3\nwait idle\nquit\n'
}
name=drm-atomic-hostile-session
hostile_session >/tmp/hostile.txt
lines=$(wc -l </tmp/hostile.txt)
rm -f /tmp/checked
/tests/vmhelper hold $CARD 800x600 /tmp/checked >$OUT/$name.helper 2>&1 &
helper=$!
sleep 1
$M run --backend drm </tmp/hostile.txt >$OUT/$name.out 2>$OUT/$name.log
rc=$?
touch /tmp/checked
wait $helper
helper_rc=$?
replies=$(grep -c '"seq":[0-9]*,"ok":' $OUT/$name.out)
errors=$(grep -c '"ok":false' $OUT/$name.out)
last=$(grep '"ok":' $OUT/$name.out | tail -n 1)
if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
elif [ "$replies" -ne "$lines" ]; then fail $name "$replies replies to $lines lines"
elif ! grep -q '"event":"scroll-finished"' $OUT/$name.out; then fail $name "the scroll after the hostile lines did not finish"
elif [ $helper_rc -ne 0 ]; then fail $name "$(tail -n 1 $OUT/$name.helper)"
else pass $name "$lines lines, $replies replies ($errors errors), the scroll after them finished, last reply $last; $(tail -n 1 $OUT/$name.helper)"; fi

# --max-fps 30 on a 60 Hz mode: every frame two vblanks after the last.
name=drm-atomic-max-fps-30
printf 'wait 0.5\nscroll-to 40 duration=2\nwait idle\nquit\n' |
    $M run --backend drm --mode 640x480 --max-fps 30 --trace $OUT/$name.jsonl >/dev/null 2>$OUT/$name.log
rc=$?
if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
elif summary=$(awk -v duration=2 -v grid=0.0002 -v vblanks_per_frame=2 -f /tests/check-trace.awk $OUT/$name.jsonl); then
    pass $name "$summary"
else fail $name "$summary"; fi

# Idle: once the scroll has ended, no frame is drawn and the process does not wake at all.
name=drm-atomic-idle-sleeps
mkfifo /tmp/idle.in
$M run --backend drm --exit-on-eof --trace $OUT/$name.jsonl </tmp/idle.in >/dev/null 2>$OUT/$name.log &
pid=$!
exec 8>/tmp/idle.in
printf 'scroll-to 5 duration=0.3\nwait idle\n' >&8
sleep 2
switches() { awk '/ctxt_switches/ { sum += $2 } END { print sum }' /proc/$pid/status; }
frames_before=$(wc -l <$OUT/$name.jsonl); switches_before=$(switches)
sleep 5
frames_after=$(wc -l <$OUT/$name.jsonl); switches_after=$(switches)
exec 8>&-
wait $pid
rm -f /tmp/idle.in
if [ "$frames_after" -ne "$frames_before" ]; then fail $name "$((frames_after - frames_before)) frames drawn while idle"
elif [ $((switches_after - switches_before)) -gt 1 ]; then fail $name "woke $((switches_after - switches_before)) times in 5 s of idling"
else pass $name "$frames_before frames, then none and $((switches_after - switches_before)) wake-ups in 5 s idle"; fi

# --- errors a new user meets ----------------------------------------------------------------------
# Each with the exit status of its cause (docs/deployment.md, "Exit statuses"): 78 for a setting
# the device does not offer, 77 for a device the user may not open.
expect_error() { # NAME STATUS TEXT ARGS...
    name=$1; status=$2; text=$3; shift 3
    $M run "$@" </dev/null >/dev/null 2>$OUT/$name.log
    rc=$?
    if [ $rc -eq $status ] && grep -q "$text" $OUT/$name.log; then pass $name "exit $rc: $(grep -m1 "$text" $OUT/$name.log)"
    else fail $name "exit $rc (not $status): $(cat $OUT/$name.log)"; fi
}
expect_error error-mode 78 "does not offer the mode 1234x567; it offers: 1024x768@60 (preferred)" --backend drm --mode 1234x567
expect_error error-connector 78 "has no connector HDMI-A-1; its connectors: Virtual-1 (connected)" --backend drm --connector HDMI-A-1
chmod 0660 $CARD; chgrp video $CARD
su kiosk -s /bin/sh -c "$M run --backend drm </dev/null" >/dev/null 2>$OUT/error-permission.log
rc=$?
if [ $rc -eq 77 ] && grep -q "permission denied. It belongs to group 'video'" $OUT/error-permission.log; then
    pass error-permission "exit $rc: $(cat $OUT/error-permission.log)"
else fail error-permission "exit $rc (not 77): $(cat $OUT/error-permission.log)"; fi
chmod 0666 $CARD

# --- snapshots that cannot be written: a full disk, a folder the user may not write -------------
# Each gets an error reply, leaves no file (not even the temporary one) and changes nothing else.
name=snapshot-failures
mkdir -p /tmp/small && mount -t tmpfs -o size=32k tmpfs /tmp/small && chmod 777 /tmp/small
mkdir -p /tmp/locked && chmod 755 /tmp/locked
printf 'snapshot /tmp/small/full.png\nsnapshot /tmp/locked/denied.png\nscroll-to 3 duration=0.2\nwait idle\nsnapshot /tmp/small/full.png\n' |
    su kiosk -s /bin/sh -c "$M run --backend software --size 1280x720" >$OUT/$name.out 2>$OUT/$name.log
rc=$?
left=$(ls -A /tmp/small /tmp/locked | grep -c png)
errors=$(grep -c '"ok":false' $OUT/$name.out)
if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
elif [ "$errors" -ne 3 ]; then fail $name "$errors error replies, not 3: $(cat $OUT/$name.out)"
elif [ "$left" -ne 0 ]; then fail $name "files were left behind: $(ls -A /tmp/small /tmp/locked)"
elif ! grep -q 'scroll-finished' $OUT/$name.out; then fail $name "the scroll after the failures did not finish"
else pass $name "$(grep -m1 'No space' $OUT/$name.out | cut -c1-100)…; $(grep -m1 'ermission' $OUT/$name.out | cut -c1-100)…; nothing left behind"; fi
umount /tmp/small

# --- auto ----------------------------------------------------------------------------------------
name=auto-picks-drm
$M run --exit-on-eof </dev/null >/dev/null 2>$OUT/$name.log
if grep -q 'backend auto: using drm' $OUT/$name.log; then pass $name "$(grep 'backend auto' $OUT/$name.log)"
else fail $name "$(cat $OUT/$name.log)"; fi
# When DRM cannot be had, auto says why and takes fbdev; when neither, software.
name=auto-falls-back
$M run --device /dev/dri/card9 --exit-on-eof </dev/null >/dev/null 2>$OUT/$name.fbdev.log
$M run --device /dev/fb9 --exit-on-eof </dev/null >/dev/null 2>$OUT/$name.software.log
if ! grep -q 'backend auto: not drm: cannot open /dev/dri/card9' $OUT/$name.fbdev.log ||
    ! grep -q 'backend auto: using fbdev' $OUT/$name.fbdev.log; then fail $name "$(cat $OUT/$name.fbdev.log)"
elif ! grep -q 'backend auto: not fbdev: there is no /dev/fb9' $OUT/$name.software.log ||
    ! grep -q 'backend auto: using software' $OUT/$name.software.log; then fail $name "$(cat $OUT/$name.software.log)"
else pass $name "$(grep -h 'backend auto' $OUT/$name.fbdev.log $OUT/$name.software.log | tr '\n' ' ')"; fi

# --- fbdev ---------------------------------------------------------------------------------------
. /tests/fbdev.sh

# --- a display's real life: off and on -------------------------------------------------------------
. /tests/display.sh

# --- seats: --seat under seatd as an ordinary user, VT switches ------------------------------------
. /tests/seat.sh

# --- two outputs on one card (reloads vkms with a second output) ---------------------------------
. /tests/outputs.sh
