#!/usr/bin/env bash
# Step 2 of the learned route's recipe (README.md): backgrounds for the training composites, from
# footage and photos that no benchmark scores.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=../shared/data
out=.cache/learned/bg
mkdir -p "$out"
for f in big_buck_bunny.mp4 Megamind.avi cup.mp4 VID00003-20100701-2204.avi tree.avi; do
  ffmpeg -loglevel error -y -i "$data/footage/$f" -vf fps=1.5 "$out/${f%%.*}_%03d.png"
done
cp "$data"/planar/*.png "$data"/planar/book-covers/frames/* "$out/"
echo "$(ls "$out" | wc -l) backgrounds in $out"
