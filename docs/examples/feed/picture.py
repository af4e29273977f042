#!/usr/bin/env python3
"""Makes apply.gif, the animated picture of this folder's README: board.py's first five states
applied one after another on the software backend (720x1280, a portrait screen), a snapshot
every 50 ms of each transition, shrunk to half size. Needs a built marquee (the first argument,
default .build/release/marquee) and Pillow (pip install pillow), which only this script uses."""
import glob
import os
import subprocess
import sys
import tempfile

from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
marquee = sys.argv[1] if len(sys.argv) > 1 else ".build/release/marquee"
work = tempfile.mkdtemp(prefix="marquee-feed-")
states = subprocess.run([sys.executable, os.path.join(here, "board.py"), "--count", "5", "--every", "0", "--seed", "3"],
                        capture_output=True, text=True, check=True).stdout.splitlines()
script = [states[0], "wait idle", "wait 0.2"]
shots = []


def snapshot():
    shots.append(os.path.join(work, f"f{len(shots):03d}.png"))
    script.append(f"snapshot {shots[-1]}")


snapshot()
for state in states[1:]:
    script.append(state)
    for _ in range(9):
        script.append("wait 0.05")
        snapshot()
    script.append("wait idle")
    snapshot()
script.append("quit")
subprocess.run([marquee, "run", "--backend", "software", "--size", "720x1280"], input="\n".join(script) + "\n",
               capture_output=True, text=True, check=True)
frames = [Image.open(path).convert("RGB").resize((360, 640), Image.LANCZOS).quantize(colors=64, dither=Image.Dither.NONE)
          for path in shots]
# Each settled board stays a second; the transitions play at 60 ms a frame.
durations = [1000 if index % 10 == 0 else 60 for index in range(len(frames))]
frames[0].save(os.path.join(here, "apply.gif"), save_all=True, append_images=frames[1:], duration=durations, loop=0,
               optimize=True)
print(f"{os.path.join(here, 'apply.gif')}: {len(frames)} frames")
