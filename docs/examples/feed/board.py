#!/usr/bin/env python3
"""A departure board that changes by itself, for trying `apply`.

Every few seconds the board moves on: the first train leaves, a new one joins at the end, now and
then one is delayed or changes platform. Each time, the whole board is printed as one `apply`
line, and Marquee animates what changed (the train leaving falls away, the new one grows in, a
delayed one changes colour). Only the Python standard library is needed.

    docs/examples/feed/board.py | marquee run                       # the board on stdin
    docs/examples/feed/board.py | marquee send --reconnect          # to a running marquee
    docs/examples/feed/board.py --state /srv/board/now.json | marquee send --reconnect

With --state the board is written to that file (whole, then renamed into place, so Marquee never
reads half of it) and the line is `apply FILE`; without it the board is on the line itself (a
line may be up to 64 KiB, plenty for a board). --count N stops after N states (for scripts and
tests); --every S sets the seconds between them (default 5); --seed N gives another day.
"""
import argparse
import json
import os
import random
import sys
import tempfile
import time

DESTINATIONS = ["Carrow Bay", "Alderley", "Brightwater", "Dunmore", "Eastleigh Park", "Fenwick",
                "Glenholme", "Harrowgate", "Ivybridge Road", "Juniper Vale"]
ON_TIME, DELAYED, CANCELLED = "#2ea05a", "#e8a33d", "#d64545"


class Board:
    def __init__(self, rng):
        self.rng = rng
        self.clock = 6 * 60  # minutes since midnight
        self.next_number = 1
        self.trains = []
        for _ in range(8):
            self.add_train()

    def add_train(self):
        last = self.trains[-1]["minute"] if self.trains else self.clock
        minute = last + self.rng.choice([3, 4, 6, 7, 9])
        self.trains.append({
            "id": f"t{self.next_number:04d}",
            "minute": minute,
            "destination": self.rng.choice(DESTINATIONS),
            "platform": self.rng.randint(1, 6),
            "delay": 0,
            "cancelled": False,
        })
        self.next_number += 1

    def step(self):
        """Two minutes pass: trains due leave, one joins, sometimes one is delayed or moved."""
        self.clock += 2
        while self.trains and self.trains[0]["minute"] + self.trains[0]["delay"] <= self.clock:
            self.trains.pop(0)
        while len(self.trains) < 8:
            self.add_train()
        roll = self.rng.random()
        waiting = self.trains[1:]
        if roll < 0.3 and waiting:
            self.rng.choice(waiting)["delay"] += self.rng.choice([3, 5, 10])
        elif roll < 0.4 and waiting:
            self.rng.choice(waiting)["platform"] = self.rng.randint(1, 6)
        elif roll < 0.45 and waiting:
            self.rng.choice(waiting)["cancelled"] = True
        # A delayed train may now leave after one due later: the board shows them in order.
        self.trains.sort(key=lambda train: train["minute"] + train["delay"])

    def deck(self):
        cards = []
        for train in self.trains:
            hour, minute = divmod(train["minute"], 60)
            if train["cancelled"]:
                status, colour = "Cancelled", CANCELLED
            elif train["delay"]:
                status, colour = f"Delayed {train['delay']} min", DELAYED
            else:
                status, colour = "On time", ON_TIME
            cards.append({
                "id": train["id"],
                "title": f"{hour:02d}:{minute:02d}  {train['destination']}",
                "body": f"Platform {train['platform']} · {status}",
                "accent": colour,
            })
        hour, minute = divmod(self.clock, 60)
        return {
            "layout": {"cardHeight": 120, "spacing": 16, "insets": 32},
            "style": {"titleSize": 36, "bodySize": 24},
            "sections": [{"id": "departures", "title": f"Departures · {hour:02d}:{minute:02d}", "cards": cards}],
        }


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".board-", suffix=".json")
    with os.fdopen(handle, "w") as file:
        file.write(text)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=float, default=5, help="seconds between states (default 5)")
    parser.add_argument("--state", help="write each state to this file and print `apply FILE`")
    parser.add_argument("--count", type=int, help="stop after this many states")
    parser.add_argument("--seed", type=int, default=1, help="another day's trains")
    args = parser.parse_args()
    board = Board(random.Random(args.seed))
    sent = 0
    while args.count is None or sent < args.count:
        if sent:
            board.step()
        text = json.dumps(board.deck(), ensure_ascii=False)
        if args.state:
            write_atomically(args.state, text)
            print(f"apply {args.state}", flush=True)
        else:
            print(f"apply {text}", flush=True)
        sent += 1
        if args.count is None or sent < args.count:
            time.sleep(args.every)


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(0)
