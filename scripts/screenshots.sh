#!/usr/bin/env bash
# Regenerates screenshots/ — one picture per scene in scenes/ — with `steerlab shot` under Xvfb.
# Planner scenes (planner-*.json) are shown in the 3D view, and the walk-through scene also gets a
# picture of its step-through (screenshots/planner-step-through.png, iteration 3 in the top view).
# Usage: scripts/screenshots.sh [SECONDS]   (needs xvfb: apt-get install xvfb libgl1-mesa-dri)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-6}"
cargo build --release --quiet
mkdir -p screenshots
shot() {
  STEERLAB_CONFIG_DIR="$(mktemp -d)" xvfb-run -a -s "-screen 0 1280x800x24" \
    ./target/release/steerlab shot "$@" --size 1280x800
}
for scene in scenes/*.json; do
  name="$(basename "$scene" .json)"
  view=top
  case "$name" in planner-*) view=3d ;; esac
  shot "$scene" --out "screenshots/$name.png" --seconds "$seconds" --view "$view"
done
shot scenes/planner-two-waypoints.json --out screenshots/planner-step-through.png --seconds 0 --step-through 3
# The dense scene's step-through at 11.75 s, when the ship's replan needs the fallback: its route in orange.
shot scenes/planner-dense.json --out screenshots/planner-dense-step-through.png --seconds 11.75 --step-through 64
