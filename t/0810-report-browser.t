#!/bin/sh
# 0810-report-browser.t - the report in a real browser: headless Chromium
# loads it with no network and no console message (a fresh network namespace, and its network log
# shows no request but the file itself and its data: figures), the DOM has
# every figure with a size, a screenshot of the page is taken and a section's anchor scrolls to it, and the PDF ('preflight
# report --pdf') prints with a non-blank first page and the run id on every page; the pages are
# printed at their size, nothing wider than A4 (Chromium's layout at the page's width, the PDF's words)
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need ROOT
need BUILT:t/gentrace
need BUILT:preflight
need CMD:gnuplot
need CMD:chromium
need CMD:pdftoppm
unshare -n true 2>/dev/null || skip_all "unshare -n (a network namespace) is not permitted here"
plan 20

"$TOP/t/fixtures/report/make-rundir.sh" partial "$TMP/run" >"$TMP/mk.log" 2>&1 || sed 's/^/#   /' "$TMP/mk.log"
"$PREFLIGHT" report "$TMP/run" >/dev/null 2>&1
H="$TMP/run/report.html"

# chrome ARGS... - headless Chromium with a fresh profile, without network
chrome() {
	rm -rf "$TMP/profile"
	unshare -n chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$TMP/profile" "$@" 2>>"$TMP/chromium.err"
}

: > "$TMP/chromium.err"
chrome --log-net-log="$TMP/net.json" --enable-logging=stderr --dump-dom "file://$H" > "$TMP/dom.html"
# the page's own messages (source: the report); Chromium's about itself (its extensions, chrome://)
# are not the report's, and are shown: in two full make check runs of 4 December a console message
# appeared once each (never in runs of this test alone), and was not kept
grep ':CONSOLE' "$TMP/chromium.err" | grep -v "source: file://$H " | sed 's/^/#   not the page'"'"'s: /' | head -5
is "$(grep ':CONSOLE' "$TMP/chromium.err" | grep "source: file://$H " | head -5)" "" \
	"browser-1.7 no console message of the page while loading"
# the check can see one: a page that logs an error
printf '<!DOCTYPE html><html><body><script>console.error("boom")</script></body></html>\n' > "$TMP/console.html"
: > "$TMP/chromium.err"
chrome --enable-logging=stderr --dump-dom "file://$TMP/console.html" >/dev/null
like "$(grep ':CONSOLE' "$TMP/chromium.err" | grep "source: file://$TMP/console.html ")" 'boom' \
	"browser-1.8 (control: a console error of the page is seen)"
like "$(grep -c '<section id=' "$TMP/dom.html")" '^17$' "browser-1.1 Chromium loads the file: every section is in the DOM"
# V1 L1.1 L1.2 B1 X2 H1 E1 X1 T1 R1 U1 G1.1 G1.2 F1.1 F1.2 (t/0800 report-1.4 names them)
is "$(grep -o '<figure id="fig-[A-Z0-9.]*"' "$TMP/dom.html" | wc -l)" 15 "browser-1.2 every figure is in the DOM"
is "$(grep -o '<img [^>]*>' "$TMP/dom.html" | grep -v 'width="[1-9][0-9]*" height="[1-9][0-9]*"' | wc -l)" 0 \
	"browser-1.3 every figure has a non-zero size"
# page_requests NETLOG - the URLs the page asked for (Chromium's own update and time checks have
# no origin as initiator and are not the page's)
page_requests() {
	perl -MJSON::PP -e 'local $/; my $t = <>; $t =~ s/,\s*$//; $t .= "]}" unless $t =~ /\}\s*$/;
		my $j = eval { JSON::PP->new->decode($t) } or exit 3; my %u;
		for my $e (@{$j->{events}}) { my $p = $e->{params} or next; next unless $p->{url} && $p->{initiator};
			$u{$p->{url}} = 1 unless $p->{initiator} eq "not an origin" }
		print "$_\n" for sort keys %u' "$1"
}
urls=$(page_requests "$TMP/net.json")
is "$?" 0 "browser-1.4 the network log was written and read"
is "$(printf '%s\n' "$urls" | grep -v '^$' | grep -v '^data:' | head -3)" "" \
	"browser-1.5 the page requested nothing outside itself"
# the check can see a request: a page with an external image
printf '<!DOCTYPE html><html><body><img src="http://192.0.2.1/x.png"></body></html>\n' > "$TMP/ext.html"
chrome --log-net-log="$TMP/net2.json" --dump-dom "file://$TMP/ext.html" >/dev/null
like "$(page_requests "$TMP/net2.json")" '192\.0\.2\.1' "browser-1.6 (control: an external image is seen as a request)"

chrome --screenshot="$TMP/shot.png" --window-size=1000,4000 "file://$H" >/dev/null
ok "browser-2.1 a screenshot was taken" test -s "$TMP/shot.png"
like "$(head -c 8 "$TMP/shot.png" | od -An -c | tr -d ' ')" 'PNG' "browser-2.2 ... as a PNG"
# a section's anchor scrolls the page to it: the last one's picture is not the top's (one shot a
# section took 17 launches, 45 s, and asserted only that each file was written)
chrome --screenshot="$TMP/shot-top.png" --window-size=1000,1400 "file://$H" >/dev/null
last=$(grep -o '<section id="[a-z-]*"' "$H" | tail -n 1 | sed 's/.*id="//; s/"//')
chrome --screenshot="$TMP/shot-$last.png" --window-size=1000,1400 "file://$H#$last" >/dev/null
ok "browser-2.3 the last section's anchor ($last) shows another part of the page than its top" \
	sh -c 'test -s "$1" && test -s "$2" && ! cmp -s "$1" "$2"' - "$TMP/shot-top.png" "$TMP/shot-$last.png"

run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/r.html" --pdf "$TMP/r.pdf"
is "$rc" 0 "browser-3.1 --pdf: exit 0" || echo "$err" | sed 's/^/#   /'
pdftoppm -r 40 -gray -f 1 -l 1 "$TMP/r.pdf" "$TMP/page" 2>/dev/null
dark=$(perl -e 'local $/; my $d = <>; $d =~ s/^P5\s+\d+\s+\d+\s+\d+\s//; print scalar(() = $d =~ /[\x00-\xc0]/g)' "$TMP"/page*.pgm)
like "$dark" '^[1-9][0-9]{2,}$' "browser-3.2 the PDF's first page is not blank ($dark dark pixels)"
pages=$(pdfinfo "$TMP/r.pdf" | sed -n 's/^Pages: *//p')
with_id=0
for i in $(seq 1 "$pages"); do
	pdftotext -f "$i" -l "$i" "$TMP/r.pdf" - | grep -q 'preflight report — run run' && with_id=$((with_id + 1))
done
is "$with_id" "$pages" "browser-3.3 the run id is on every page ($pages pages)"

# --- printed at size (issue 32.1): Chromium shrinks a page whose content is wider than A4 to fit,
# and the verdict table's 9 pt came out 6.4 pt with the evidence column at the page's edge.
# Chromium's own layout at the A4 page's content width (210 mm less 2 x 12 mm: 703 px) with the
# print rules: nothing is wider than the page, the verdict table the first
perl -0pe 's/\@media print\{/\@media all{/; s{</body>}{<script>
	var w = document.documentElement.clientWidth, t = document.getElementById("verdict-table").getBoundingClientRect(), o = [];
	document.querySelectorAll("body *").forEach(function (e) { if (e.getBoundingClientRect().right > w + 0.5) o.push(e.tagName + "#" + e.id) });
	var req = document.querySelectorAll("#verdict-table td:nth-child(2)")[0], px = [];
	document.querySelectorAll("#verdict-table td, #verdict-table th, #verdict-table code").forEach(function (e) {
		px.push(parseFloat(getComputedStyle(e).fontSize)); if (e.scrollWidth > e.clientWidth + 1) o.push(e.tagName + ":" + e.textContent.slice(0, 20).replace(/\\s/g, "_")) });
	function lines(e) { var g = document.createRange(), top = {}; g.selectNodeContents(e);
		Array.prototype.forEach.call(g.getClientRects(), function (c) { top[Math.round(c.top)] = 1 }); return Object.keys(top).length }
	var p = document.createElement("pre"); p.id = "layout";
	p.textContent = "width " + w + " table " + Math.ceil(t.right) + " wider " + (o.slice(0, 3).join(",") || "none") +
		" font_pt " + (Math.min.apply(null, px) * 0.75).toFixed(1) + " words_a_line " + (req.textContent.split(/\\s+/).length / lines(req)).toFixed(1);
	document.body.appendChild(p) </script></body>}' "$H" > "$TMP/layout.html"
chrome --window-size=703,1000 --dump-dom "file://$TMP/layout.html" > "$TMP/layout.dom"
layout=$(perl -0ne 'print $1 if /<pre id="layout">(.*?)<\/pre>/s' "$TMP/layout.dom")
echo "# Chromium's layout: $layout"
set -- $layout
ok "browser-4.1 at A4's width the verdict table fits (its right edge $4 px, the page $2 px)" test "${4:-9999}" -le "${2:-0}"
is "$6" none "browser-4.2 ... and nothing else is wider than the page, nor wider than its cell in the verdict table"
ok "browser-4.3 the verdict table's smallest text is 8 pt or more ($8 pt)" perl -e 'exit !($ARGV[0] >= 8)' "${8:-0}"
ok "browser-4.4 the requirement column holds words, not one a line (${10:-?} words a line)" perl -e 'exit !($ARGV[0] >= 3)' "${10:-0}"
# the PDF as printed: the 18 pt title is 18 pt against the 8 pt run id in the page's margin box
# (margin boxes are never shrunk), and every word of the verdict pages is inside the page's margins
# (12 mm = 34 pt each side; the top and bottom margins, 16 and 14 mm, hold the run id and the page number)
pdftotext -bbox "$TMP/r.pdf" "$TMP/r.bbox.html"
scale=$(perl -ne 'if (/<page width="([\d.]+)" height="([\d.]+)"/) { $p++; ($w, $h) = ($1, $2) }
	next unless /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</;
	$run //= ($4 - $2) if $5 eq "preflight" && $2 < 40; $title //= ($4 - $2) if $5 eq "Timing";
	$last //= $p if $5 eq "counted";
	if (!defined $last || $last == $p) { $out++ if $2 > 46 && $4 < $h - 40 && ($1 < 33 || $3 > $w - 33) }
	END { printf "%.2f %d\n", ($title / 18) / ($run / 8), $out }' "$TMP/r.bbox.html")
ok "browser-4.5 the PDF is printed at its size, not shrunk to fit (title to run id: ${scale% *})" perl -e 'exit !($ARGV[0] >= 0.98)' "${scale% *}"
is "${scale#* }" 0 "browser-4.6 ... and no word of the verdict pages is outside the page's 12 mm margins"
