# The VM tests of damage to the kernel (sourced by display.sh; alone with MARQUEE_VM_ONLY=damage):
# the FB_DAMAGE_CLIPS each commit carries, as they reach the driver, against the frames Marquee
# traced. vkms is built with Tests/vm/vkms-damage.patch: its primary plane takes damage clips
# (stock 6.1 vkms offers none, so Marquee would send none) and, with its log_damage parameter
# set, it prints each plane update's clips to the kernel log (check-damage.awk says what is
# checked). The session: the first frame, a scroll (whose first frame, at progress 0, is the
# same picture: committed not at all), then an `update` of one card (its crossfade changes that
# card's rows only), then a batch updating the cards above and below it (its frames change two
# places far apart: two clips, not one over the unchanged card between them).
LOG_DAMAGE=/sys/module/vkms/parameters/log_damage

cat >/tmp/damage-deck.json <<'DECK'
{"sections": [{"title": "Platforms", "cards": [
  {"id": "c0", "title": "Card 0", "body": "First"}, {"id": "c1", "title": "Card 1", "body": "Second"},
  {"id": "c2", "title": "Card 2", "body": "Third"}, {"id": "c3", "title": "Card 3", "body": "Fourth"},
  {"id": "c4", "title": "Card 4", "body": "Fifth"}, {"id": "c5", "title": "Card 5", "body": "Sixth"},
  {"id": "c6", "title": "Card 6", "body": "Seventh"}, {"id": "c7", "title": "Card 7", "body": "Eighth"},
  {"id": "c8", "title": "Card 8", "body": "Ninth"}, {"id": "c9", "title": "Card 9", "body": "Tenth"}]}]}
DECK

damage_test() { # NAME ROTATE (atomic|legacy) [refused]
    name=$1; rotate=$2; mode=$3; refused=$4
    if [ "$mode" = legacy ]; then export MARQUEE_DRM_NO_ATOMIC=1; clips=0; else unset MARQUEE_DRM_NO_ATOMIC; clips=1; fi
    multi=$clips
    if [ ! -e $LOG_DAMAGE ]; then fail $name "vkms has no log_damage parameter (Tests/vm/vkms-damage.patch not built in)"; return; fi
    echo 1 >$LOG_DAMAGE
    [ -n "$refused" ] && echo 1 >$REFUSE_ROTATION
    dmesg -c >/dev/null
    printf '%s\n' 'wait 0.3' 'scroll-to 2 duration=0.5' 'wait idle' \
        'update 3 {"id":"c3","title":"Changed","body":"Updated"}' 'wait idle' \
        'batch' 'update 2 {"id":"c2","title":"Changed above","body":"Updated"}' \
        'update 4 {"id":"c4","title":"Changed below","body":"Updated"}' 'commit' 'wait idle' 'wait 0.2' 'quit' |
        $M run --backend drm --mode 640x480 --rotate $rotate --deck /tmp/damage-deck.json --trace $OUT/$name.jsonl \
            >$OUT/$name.out 2>$OUT/$name.log
    rc=$?
    sleep 0.5
    echo 0 >$LOG_DAMAGE
    [ -n "$refused" ] && echo 0 >$REFUSE_ROTATION
    dmesg | grep -E 'vkms-damage(-clip)?:' >$OUT/$name.kernel
    unset MARQUEE_DRM_NO_ATOMIC
    show $OUT/$name.log
    case $rotate in 90 | 270) size='-v width=480 -v height=640' ;; *) size='-v width=640 -v height=480' ;; esac
    # A half turn made by the plane (atomic; vkms-rotation.patch) leaves the framebuffer unturned,
    # and clips are in the framebuffer's coordinates: they must be the frame's rows as they are.
    # Where the plane refuses the turn (vkms's refuse_rotation), the copy turns the frames, and
    # the clips are the turned rows.
    turned=$rotate
    [ "$mode" = atomic ] && [ $rotate = 180 ] && [ -z "$refused" ] && turned=0
    if [ $rc -ne 0 ]; then fail $name "marquee exited $rc"
    elif [ -n "$refused" ] && ! grep -q 'rotating by 180° while copying' $OUT/$name.log; then
        fail $name "the log does not say the frames were turned while copying"
    elif ! grep -q '"event":"scroll-finished"' $OUT/$name.out; then fail $name "the scroll did not finish"
    elif ! grep -q '"event":"batch-finished"' $OUT/$name.out; then fail $name "the batch did not finish"
    elif summary=$(awk $size -v rotate=$turned -v clips=$clips -v multi=$multi -f /tests/check-damage.awk $OUT/$name.kernel $OUT/$name.jsonl); then
        pass $name "$summary"
    else fail $name "$summary"; fi
}
damage_test drm-atomic-damage-clips 0 atomic
damage_test drm-atomic-damage-clips-rotate90 90 atomic
damage_test drm-atomic-damage-clips-rotate180-plane 180 atomic
damage_test drm-atomic-damage-clips-rotate180-refused 180 atomic refused
damage_test drm-legacy-damage-skips 0 legacy
