#!/usr/bin/env bash
# Regenerates screenshots/ — one picture per scene in scenes/ — with `steerlab shot` under Xvfb.
# Usage: scripts/screenshots.sh [SECONDS]   (needs xvfb: apt-get install xvfb libgl1-mesa-dri)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-6}"
cargo build --release --quiet
mkdir -p screenshots
for scene in scenes/*.json; do
  name="$(basename "$scene" .json)"
  STEERLAB_CONFIG_DIR="$(mktemp -d)" xvfb-run -a -s "-screen 0 1280x800x24" \
    ./target/release/steerlab shot "$scene" --out "screenshots/$name.png" --seconds "$seconds" --size 1280x800
done
