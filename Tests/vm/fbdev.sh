# The fbdev backend on the kernel's framebuffer devices: vkms's fbdev emulation and the vfb
# module at 16 and 32 bpp. Sourced by guest.sh (MARQUEE_VM_ONLY=fbdev runs only these).
# --- fbdev ---------------------------------------------------------------------------------------
fbdev_test() { # NAME DEVICE SIZE ROTATE TOLERANCE GRID VBLANKS_PER_FRAME EXPECTED_LOG [ARGS...]
    name=$1; device=$2; size=$3; rotate=$4; tolerance=$5; grid=$6; per_frame=$7; expected=$8
    shift 8
    printf 'wait 0.5\nscroll-to 40 duration=1\nwait idle\nsnapshot /out/'$name'.png\nquit\n' |
        $M run --backend fbdev --device $device --rotate $rotate "$@" --trace $OUT/$name.jsonl >$OUT/$name.out 2>$OUT/$name.log
    rc=$?
    show $OUT/$name.log
    software_snapshot $name-software $size \
        'scroll-to 40 duration=1\nwait idle\nsnapshot /out/'$name'-software.png\n' $rotate
    # The panel size is the software --size turned back.
    timing=$(awk -v duration=1 -v grid=$grid -v vblanks_per_frame=$per_frame -f /tests/check-trace.awk $OUT/$name.jsonl)
    timing_ok=$?
    console=$(/tests/vmhelper kdmode /dev/tty0)
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
    elif ! grep -q "$expected" $OUT/$name.log; then fail $name "the log does not say '$expected'"
    elif ! grep -q 'console switched to graphics mode' $OUT/$name.log; then fail $name "the console was not switched to graphics mode"
    elif [ "$console" != "KDMODE text" ]; then fail $name "the console was left in graphics mode ($console)"
    elif ! result=$($M compare $OUT/$name-software.png $OUT/$name.png --tolerance $tolerance --diff $OUT/${name}_err.png); then
        fail $name "$result"
    elif [ $timing_ok -ne 0 ]; then fail $name "timing: $timing"
    else pass $name "$result; $timing; console back in text mode"; fi
}
# FBIO_WAITFORVSYNC says that a vsync passed, not when: the times are those at which the ioctl
# returned, so they are not held to the vblank grid (no GRID); no vsync may draw two frames.
# The DRM fbdev emulation traps every written page and copies it once more inside the guest
# kernel, which under TCG takes about a whole period for a 1024x768 frame; so this runs at
# --max-fps 30 (as slow panels often are): every frame two vsyncs after the last, none drawing two.
fbdev_test fbdev-vkms-32bpp-30fps /dev/fb0 1024x768 0 0 '' 2 'XRGB8888, .*, vsync from FBIO_WAITFORVSYNC' --max-fps 30
modprobe_vfb() { insmod /lib/modules/vfb.ko vfb_enable=1 videomemorysize=4194304; }
modprobe_vfb
/tests/vmhelper fbmode /dev/fb1 640 480 960 16 20000 | sed 's/^/    /'
# vfb stores red in the low bits (BGR565, XBGR8888) and has no vsync: the timer paces frames, at
# the rate of its pixel clock and margins or, with pixclock 0, at 60 Hz: frames land exactly on its
# ticks.
fbdev_test fbdev-vfb-16bpp /dev/fb1 640x480 0 8 0.0002 1 'BGR565, 2 pages, panning, no FBIO_WAITFORVSYNC, a timer at 110.07 Hz'
# A quarter turn into 16-bit rows that do not start on cache lines (600 pixels: 1200 bytes, as
# fbdev's RGB565 rows at 1080 pixels are 2160): each band's lines are finished by the next band's
# (TurnCarry); the panel must hold the whole turned frame, within 565's truncation.
/tests/vmhelper fbmode /dev/fb1 600 400 800 16 20000 | sed 's/^/    /'
fbdev_test fbdev-vfb-16bpp-rotate90 /dev/fb1 600x400 90 8 0.0002 1 'BGR565, 2 pages, panning, no FBIO_WAITFORVSYNC, a timer at'
/tests/vmhelper fbmode /dev/fb1 480 640 1280 32 0 | sed 's/^/    /'
fbdev_test fbdev-vfb-32bpp-rotate270 /dev/fb1 480x640 270 0 0.0002 1 'XBGR8888, 2 pages, panning, no FBIO_WAITFORVSYNC, a timer at 60 Hz (the driver gives no timings)'
