# analyze-lib.sh - helpers of the 'preflight analyze' tests (t/05xx)
GEN="$B/t/gentrace"

need_gentrace() {
	[ -x "$GEN" ] || { echo "1..1"; echo "not ok 1 - gentrace: not built (run make unit-tests)"; exit 1; }
}

# jv FILE PATH - one value of a results.json; PATH is separated by '/', an
# element of an array is chosen by index or by KEY=VALUE
# (tasks/name=ctl100/activation_latency_ns/p99.9)
jv() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n";
		my $v = JSON::PP->new->decode(<$f>);
		for my $k (grep { length } split m{/}, $ARGV[1]) {
			if (ref $v eq "ARRAY") {
				if ($k =~ /^(\w+)=(.*)$/) {
					my ($kk, $vv) = ($1, $2);
					($v) = grep { defined $_->{$kk} && $_->{$kk} eq $vv } @$v;
				} else {
					$v = $v->[$k];
				}
			} else {
				$v = $v->{$k};
			}
		}
		print ref $v ? JSON::PP->new->canonical->encode($v)
		    : !defined $v ? "null" : JSON::PP::is_bool($v) ? ($v ? "true" : "false") : $v;
	' "$1" "$2"
}
