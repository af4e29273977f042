#!/usr/bin/env python3
"""Makes pages.gif and ticker.gif, the animated pictures of signage playback: docs/examples/library.json
paging by itself (its own "playback": pages, dwell 8 s, 0.8 s moves, wrap=loop: past the last
card the first ones come again), and the same deck as a ticker (`play ticker speed=160`), on the
software backend's virtual clock at 1280x720, shrunk to 480x270. A page's dwell is shortened to
1.2 s in the picture (each resting page is one frame shown that long); the moves and the ticker
are snapshots every 0.1 s of the clock, played in real time. Needs a built marquee (the first
argument, default .build/release/marquee) and Pillow (pip install pillow), which only this
script uses."""
import os
import subprocess
import sys
import tempfile

from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
deck = os.path.join(here, "..", "library.json")
marquee = sys.argv[1] if len(sys.argv) > 1 else ".build/release/marquee"
work = tempfile.mkdtemp(prefix="marquee-playback-")


def run(script, shots):
    subprocess.run([marquee, "run", "--backend", "software", "--size", "1280x720", "--deck", deck],
                   input="\n".join(script + ["quit"]) + "\n", capture_output=True, text=True, check=True)
    return [Image.open(path).convert("RGB").resize((480, 270), Image.LANCZOS)
            .quantize(colors=64, dither=Image.Dither.NONE) for path in shots]


def save(name, frames, durations):
    frames[0].save(os.path.join(here, name), save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=True)
    print(f"{os.path.join(here, name)}: {len(frames)} frames")


# Paging: the deck plays by itself from the start; a rest, then each 0.8 s move in 0.1 s steps.
script, shots, durations = [], [], []


def snapshot(duration):
    shots.append(os.path.join(work, f"p{len(shots):03d}.png"))
    script.append(f"snapshot {shots[-1]}")
    durations.append(duration)


snapshot(1200)
for page in range(5):
    script.append("wait 8")
    for _ in range(8):
        script.append("wait 0.1")
        snapshot(100)
    durations[-1] = 1200
save("pages.gif", run(script, shots), durations)

# The ticker: 6 s of it, a snapshot every 0.1 s.
script, shots, durations = ["play ticker speed=160"], [], []
for _ in range(60):
    script.append("wait 0.1")
    snapshot(100)
save("ticker.gif", run(script, shots), durations)
