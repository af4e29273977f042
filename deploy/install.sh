#!/usr/bin/env bash
# deploy/install.sh: install Marquee as a kiosk service on Debian or Raspberry Pi OS.
#
#   sudo deploy/install.sh                 build (release), install, enable and start the service
#   sudo deploy/install.sh --no-start      install and enable, but do not start now
#   sudo deploy/install.sh --uninstall     stop and remove the service and the binary
#                                          (keeps /etc/marquee, /var/lib/marquee and the user)
#   sudo deploy/install.sh --uninstall --purge   also remove those
#
#   --seat          open the display through seatd (marquee run --seat): installs Debian's seatd,
#                   lets the marquee group reach it, and keeps the user out of video and render
#   --binary PATH   install this marquee binary instead of building one
#   --root DIR      install under DIR instead of / (for packaging and tests: no user is created and
#                   systemd is not touched)
#
# Running it again is safe: it updates the binary, the unit and the docs, and never overwrites the
# deck or the settings an operator has edited (/etc/marquee/deck.json, /etc/default/marquee).
set -euo pipefail
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
ROOT=/
BINARY=
START=1
UNINSTALL=0
PURGE=0
SEAT=0
while [ $# -gt 0 ]; do
    case $1 in
    --uninstall) UNINSTALL=1 ;;
    --purge) PURGE=1 ;;
    --no-start) START=0 ;;
    --binary) BINARY=${2:?--binary needs a path}; shift ;;
    --root) ROOT=${2:?--root needs a directory}; shift ;;
    --seat) SEAT=1 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
say() { echo "install.sh: $*" >&2; }
SYSTEM=0
[ "$ROOT" = / ] && SYSTEM=1
if [ "$SYSTEM" = 1 ] && [ "$(id -u)" != 0 ]; then
    say "run it as root (sudo deploy/install.sh)"
    exit 1
fi
R=${ROOT%/}
have_systemd() { [ "$SYSTEM" = 1 ] && [ -d /run/systemd/system ]; }

if [ "$UNINSTALL" = 1 ]; then
    if have_systemd; then
        systemctl disable --now marquee.service 2>/dev/null || true
    fi
    rm -f "$R/etc/systemd/system/marquee.service" "$R/usr/local/bin/marquee" \
        "$R/etc/systemd/system/marquee.service.d/seat.conf" "$R/etc/systemd/system/seatd.service.d/marquee.conf"
    rmdir "$R/etc/systemd/system/marquee.service.d" "$R/etc/systemd/system/seatd.service.d" 2>/dev/null || true
    rm -rf "$R/usr/local/share/doc/marquee"
    have_systemd && systemctl daemon-reload
    if [ "$PURGE" = 1 ]; then
        rm -rf "$R/etc/marquee" "$R/var/lib/marquee" "$R/etc/default/marquee"
        if [ "$SYSTEM" = 1 ] && id marquee >/dev/null 2>&1; then
            userdel marquee
            say "removed the marquee user"
        fi
        say "removed Marquee, its settings and its files"
    else
        say "removed the service and the binary; kept /etc/marquee, /etc/default/marquee and /var/lib/marquee (--purge removes them)"
    fi
    exit 0
fi

if [ -z "$BINARY" ]; then
    if ! command -v swift >/dev/null; then
        # sudo resets PATH, so a toolchain unpacked under /opt or a home folder is not found.
        say "no Swift toolchain on root's PATH (sudo resets PATH). Either keep yours:"
        say "    sudo env PATH=\"\$PATH\" deploy/install.sh"
        say "or build as yourself and install the binary:"
        say "    swift build -c release --static-swift-stdlib && sudo deploy/install.sh --binary .build/release/marquee"
        exit 1
    fi
    say "building a release binary (a few minutes on a Raspberry Pi)"
    "$SOURCE/tools/install-dependencies"
    # The Swift runtime is linked in, so the installed binary does not need the toolchain it was
    # built with: a Pi can be set up from a binary built elsewhere, and removing the toolchain (or
    # upgrading it) does not break the kiosk.
    (cd "$SOURCE" && swift build -c release --static-swift-stdlib --product marquee >&2)
    BINARY=$SOURCE/.build/release/marquee
fi
[ -x "$BINARY" ] || { say "no marquee binary at $BINARY"; exit 1; }

# What the binary loads. ldd cannot read a binary of another architecture (packaging for a Pi on a
# PC): then there is nothing to check here.
if libraries=$(ldd "$BINARY" 2>/dev/null); then
    missing=$(printf '%s\n' "$libraries" | awk '/not found/{print $1}' | tr '\n' ' ')
    if [ -n "$missing" ]; then
        say "$BINARY cannot start on this machine: it needs ${missing% } (see docs/deployment.md)"
        exit 1
    fi
    swift_runtime=$(printf '%s\n' "$libraries" | awk '/lib(swift|Foundation|dispatch|BlocksRuntime)/{print $3}' | head -1)
    if [ -n "$swift_runtime" ]; then
        say "warning: $BINARY loads the Swift runtime from ${swift_runtime%/*}: it stops starting if that toolchain"
        say "goes, and will not start on a machine without it. Build it with 'swift build -c release --static-swift-stdlib'"
        say "(what this script does without --binary)."
    fi
fi

install -d "$R/usr/local/bin" "$R/etc/marquee" "$R/etc/default" "$R/etc/systemd/system" \
    "$R/usr/local/share/doc/marquee" "$R/var/lib/marquee"
install -m 755 "$BINARY" "$R/usr/local/bin/marquee"
install -m 644 "$SOURCE/deploy/marquee.service" "$R/etc/systemd/system/marquee.service"
install -m 644 "$SOURCE/docs/deployment.md" "$SOURCE/docs/protocol.md" "$SOURCE/docs/deck-format.md" \
    "$SOURCE/deploy/raspberry-pi.md" "$R/usr/local/share/doc/marquee/"
# The operator's files are created once and then left alone.
if [ ! -e "$R/etc/marquee/deck.json" ]; then
    install -m 644 "$SOURCE/docs/examples/departures.json" "$R/etc/marquee/deck.json"
    # The example's logos, beside it (its image fields are relative to the deck's folder).
    install -d "$R/etc/marquee/images"
    install -m 644 "$SOURCE"/docs/examples/images/* "$R/etc/marquee/images/"
    say "installed an example deck as /etc/marquee/deck.json (and its pictures in /etc/marquee/images): replace it with yours"
fi
[ -e "$R/etc/default/marquee" ] || install -m 644 "$SOURCE/deploy/marquee.default" "$R/etc/default/marquee"
# Seats: seatd opens the card for Marquee, switched on by two drop-ins; without --seat they are
# removed again (running install.sh without it goes back to the video group).
if [ "$SEAT" = 1 ]; then
    install -d "$R/etc/systemd/system/marquee.service.d" "$R/etc/systemd/system/seatd.service.d"
    install -m 644 "$SOURCE/deploy/seat/marquee.conf" "$R/etc/systemd/system/marquee.service.d/seat.conf"
    install -m 644 "$SOURCE/deploy/seat/seatd.conf" "$R/etc/systemd/system/seatd.service.d/marquee.conf"
    if [ "$SYSTEM" = 1 ] && ! dpkg-query -W seatd libseat1 >/dev/null 2>&1; then
        say "installing seatd and libseat1 (the seat manager and the library --seat opens)"
        apt-get install -y seatd libseat1 >&2
    fi
else
    rm -f "$R/etc/systemd/system/marquee.service.d/seat.conf" "$R/etc/systemd/system/seatd.service.d/marquee.conf"
fi

if [ "$SYSTEM" = 1 ]; then
    if ! id marquee >/dev/null 2>&1; then
        useradd --system --home-dir /var/lib/marquee --no-create-home --shell /usr/sbin/nologin marquee
        say "created the system user marquee"
    fi
    for group in video render; do
        getent group "$group" >/dev/null || continue
        if [ "$SEAT" = 1 ]; then
            # The point of the seat: the user cannot open the card behind seatd's back.
            gpasswd -d marquee "$group" >/dev/null 2>&1 || true
        else
            usermod -aG "$group" marquee
        fi
    done
    chown marquee:marquee /var/lib/marquee
fi
# Operators in the marquee group may put decks here and `load` them over the socket, without sudo
# (the unit's StateDirectoryMode keeps the same mode).
chmod 0775 "$R/var/lib/marquee"
"$R/usr/local/bin/marquee" check-deck "$R/etc/marquee/deck.json" >&2 ||
    say "the deck /etc/marquee/deck.json has problems (above); the service will not start until they are fixed"

if have_systemd; then
    systemctl daemon-reload
    if [ "$SEAT" = 1 ]; then
        systemctl enable seatd.service >&2
        systemctl restart seatd.service
        say "seats: seatd opens the display for the marquee user (not in video); a VT switch pauses the display"
    fi
    systemctl enable marquee.service >&2
    if [ "$START" = 1 ]; then
        systemctl restart marquee.service
        say "started: systemctl status marquee; journalctl -u marquee -f"
    fi
    say "send commands as a member of the marquee group (sudo usermod -aG marquee \$USER):"
    say "  marquee send 'scroll-to end duration=2'"
elif [ "$SYSTEM" = 1 ]; then
    say "systemd is not running here: start it by hand with /usr/local/bin/marquee run ... (docs/deployment.md)"
fi
say "installed under $ROOT"
