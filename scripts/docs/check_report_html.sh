#!/usr/bin/env bash
# Open a report.html in headless Chromium and check that every plot is drawn and that the
# page's own font carries the Chinese text.
#
#   scripts/docs/check_report_html.sh REPORT.html [SHOT.png]     (needs: apt-get install chromium)
#
# Chromium sees only the DejaVu fonts (a private fontconfig), so Chinese text that shows at
# all comes from the font embedded in the page. A copy of the page with a small probe script
# counts the images that decoded and whether the embedded font loaded; then a full-page
# screenshot is written to SHOT.png (default: report-shot.png) to look at.
set -euo pipefail

html=$(realpath "$1")
shot=$(realpath -m "${2:-report-shot.png}")
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/fonts.conf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <cachedir>$work/cache</cachedir>
</fontconfig>
EOF
export FONTCONFIG_FILE="$work/fonts.conf"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=10000)

python3 - "$html" "$work/probe.html" <<'EOF'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
probe = """<script>
window.addEventListener("load", () => document.fonts.ready.then(() => {
  const imgs = [...document.images];
  const ok = imgs.filter(i => i.complete && i.naturalWidth > 0).length;
  const fonts = [...document.fonts].filter(f => f.status === "loaded").length;
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = `images ${ok}/${imgs.length}, embedded fonts loaded ${fonts}, ` +
    `page height ${document.documentElement.scrollHeight}`;
  document.body.prepend(out);
}));
</script>"""
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", probe + "</body>"))
EOF

result=$("$browser" "${flags[@]}" --dump-dom "file://$work/probe.html" 2>/dev/null \
         | sed -n 's/.*<pre id="probe">\([^<]*\)<.*/\1/p')
echo "$result"
read -r ok total < <(sed -n 's/^images \([0-9]*\)\/\([0-9]*\),.*/\1 \2/p' <<<"$result")
loaded=$(sed -n 's/.*embedded fonts loaded \([0-9]*\),.*/\1/p' <<<"$result")
height=$(sed -n 's/.*page height \([0-9]*\).*/\1/p' <<<"$result")
"$browser" "${flags[@]}" --screenshot="$shot" --window-size="1200,$((height + 40))" \
    "file://$html" 2>/dev/null
echo "screenshot: $shot (1200 x $((height + 40)))"
if [[ -z "$total" || "$total" -eq 0 || "$ok" -ne "$total" || "$loaded" -lt 1 ]]; then
    echo "FAIL: not every image decoded, or the embedded font did not load" >&2
    exit 1
fi
echo "ok"
