#!/usr/bin/env bash
# Regenerates the labelled frames of `npm run bench -- screen-text` (labels.json beside them):
# 720p frames with text as video shows it: slides, signs, captions and lower thirds over busy
# moving pictures, small print. Needs ffmpeg 5.1+ and the DejaVu fonts (Debian 12:
# `apt-get install -y ffmpeg fonts-dejavu-core`). The pictures under the text are ffmpeg's
# generated patterns, not photographs: the set measures reading text over clutter, not scenes.
set -euo pipefail
cd "$(dirname "$0")"
F=/usr/share/fonts/truetype/dejavu
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
# frame <name> <lavfi source> <filters>: one 1280x720 JPEG.
frame() {
  local src="$2:size=1280x720:rate=25"
  [[ "$2" == *=* ]] || src="$2=size=1280x720:rate=25"
  ff -f lavfi -i "$src" -vf "$3" -frames:v 1 -q:v 6 "$1.jpg"
}
t() { echo "drawtext=fontfile=$F/$1:text='$2':fontsize=$3:fontcolor=$4:x=$5:y=$6"; }
box() { echo "drawbox=x=0:y=$1:w=iw:h=$2:color=black@0.65:t=fill"; }

frame slide-title "color=c=white" "$(t DejaVuSerif-Bold.ttf 'Quarterly safety review' 72 black 80 120),$(t DejaVuSans.ttf 'Incidents down 12 percent' 48 0x333333 80 300),$(t DejaVuSans.ttf 'Near misses reported within one hour' 40 0x333333 80 400)"
frame slide-bullets "color=c=0xf4f1de" "$(t DejaVuSans-Bold.ttf 'Loading dock rules' 64 0x3d405b 80 80),$(t DejaVuSans.ttf 'Wear a hard hat at all times' 44 0x3d405b 120 240),$(t DejaVuSans.ttf 'Chock the wheels before unloading' 44 0x3d405b 120 330),$(t DejaVuSans.ttf 'Report every spill at once' 44 0x3d405b 120 420)"
frame sign-cold "color=c=0x1d3557" "$(t DejaVuSans-Bold.ttf 'COLD STORAGE' 110 white '(w-tw)/2' 220),$(t DejaVuSans.ttf 'Authorised staff only' 52 0xf1faee '(w-tw)/2' 400)"
frame sign-exit "color=c=0x2a9d8f" "$(t DejaVuSans-Bold.ttf 'EMERGENCY EXIT' 100 white '(w-tw)/2' 260),$(t DejaVuSans-Bold.ttf 'Keep clear' 60 0xffd166 '(w-tw)/2' 420)"
frame sign-danger "color=c=0xffd60a" "$(t DejaVuSans-Bold.ttf 'DANGER' 140 black '(w-tw)/2' 160),$(t DejaVuSans-Bold.ttf 'High voltage' 80 black '(w-tw)/2' 380)"
frame overlay-news "testsrc2=alpha=255" "$(box 560 110),$(t DejaVuSans-Bold.ttf 'Forklift route closed today' 56 white 40 585)"
frame overlay-mandel "mandelbrot" "$(box 540 140),$(t DejaVuSans-Bold.ttf 'Night shift starts at ten' 52 white 40 560),$(t DejaVuSans.ttf 'Gate B only' 40 0xffd166 40 630)"
frame overlay-life "life=ratio=0.4:mold=10:life_color=0x6a994e:death_color=0x386641" "$(box 40 120),$(t DejaVuSans-Bold.ttf 'Harvest report' 70 white 40 65)"
frame overlay-plain-on-busy "testsrc=decimals=0" "$(t DejaVuSans-Bold.ttf 'Visitors sign in here' 64 white 60 300)"
frame small-print "color=c=0xe9ecef" "$(t DejaVuSans.ttf 'Batch 4471 packed on 12 March' 30 0x212529 60 600),$(t DejaVuSans.ttf 'Store below 5 degrees' 30 0x212529 60 650)"
frame mono-terminal "color=c=0x111111" "$(t DejaVuSansMono.ttf 'status OK all pumps running' 40 0x39ff14 60 200),$(t DejaVuSansMono.ttf 'pressure 4.2 bar' 40 0x39ff14 60 270)"
frame no-text "cellauto=rule=110" "null"
