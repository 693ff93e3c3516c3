#!/bin/sh
# 0004-help.t - every subcommand's --help lists each option with its default
# (docs/ARCHITECTURE.md), and 'preflight help CMD' prints the same text.
. "$(dirname "$0")/lib/test-lib.sh"

cmds=$("$PREFLIGHT" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
n=$(printf '%s\n' $cmds | grep -vc '^help$')
plan $((2 * n + 1))
ok "help-1.1 preflight help lists commands ($(echo $cmds))" test "$n" -ge 3

# options without a default in a --help text: an option entry starts with a few
# spaces and -x or --long, and runs to the next entry or a blank line
nodefault() {
	perl -e '
		local $/; my $t = <STDIN>; my (@bad, $cur, $txt);
		my $flush = sub { push @bad, $cur if defined $cur && $cur !~ /^(--help|-h)$/ && $txt !~ /default/i; undef $cur; };
		for (split /\n/, $t) {
			if (/^\s{1,6}(-\w(?:, --[\w-]+)?|--[\w-]+)/) { $flush->(); ($cur = $1) =~ s/^-\w, //; $txt = $_; }
			elsif (/^\s*$/) { $flush->(); }
			elsif (defined $cur) { $txt .= $_; }
		}
		$flush->(); print join(" ", @bad);'
}

i=1
for c in $cmds; do
	[ "$c" = help ] && continue
	i=$((i + 1))
	run_cmd "$PREFLIGHT" "$c" --help
	h1=$out
	run_cmd "$PREFLIGHT" help "$c"
	is "$out" "$h1" "help-$i.1 'preflight help $c' is '$c --help'"
	bad=$(printf '%s\n' "$h1" | nodefault)
	is "$bad" "" "help-$i.2 $c --help: every option with its default"
done
done_testing
