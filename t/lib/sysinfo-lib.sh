# sysinfo-lib.sh - helpers shared by the t/01NN-sysinfo-*.t tests (sourced
# after test-lib.sh): survey a tree into a JSON file, list its warning ids,
# copy a fixture tree to change it.

FIX="$TOP/t/fixtures/sysinfo"

# survey ROOT NAME - 'preflight sysinfo --json --root ROOT' into $TMP/NAME.json ($rc, $err)
survey() {
	run_cmd "$PREFLIGHT" sysinfo --json --root "$1" -o "$TMP/$2.json"
	[ "$rc" -eq 0 ] || echo "# survey of $1: exit $rc: $err"
}

# warning_ids FILE - the ids of a survey's warnings, in order, space separated
warning_ids() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n";
		my $v = JSON::PP->new->decode(<$f>);
		print join " ", map { $_->{id} } @{ $v->{warnings} };
	' "$1"
}

# warning_field FILE ID KEY - one key (message, advice, severity) of the warning ID
warning_field() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n";
		my $v = JSON::PP->new->decode(<$f>);
		print map { $_->{$ARGV[2]} } grep { $_->{id} eq $ARGV[1] } @{ $v->{warnings} };
	' "$1" "$2" "$3"
}

# valid_json FILE - succeeds when FILE is one JSON object with the sysinfo schema
valid_json() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n";
		my $v = JSON::PP->new->decode(<$f>);
		ref $v eq "HASH" && $v->{schema} eq "preflight-sysinfo/1" or die "no schema\n";
		ref $v->{warnings} eq "ARRAY" && ref $v->{notes} eq "ARRAY" or die "no warnings/notes arrays\n";
	' "$1"
}

# tree_copy NAME NEW - copy fixture tree NAME to $TMP/NEW and print its path
tree_copy() {
	rm -rf "$TMP/$2"
	cp -a "$FIX/$1" "$TMP/$2"
	echo "$TMP/$2"
}

# has_keys FILE PATH... - succeeds when every dotted PATH exists (its value may be null)
has_keys() {
	perl -MJSON::PP -e '
		local $/; my $file = shift; open my $f, "<", $file or die "$file: $!\n";
		my $top = JSON::PP->new->decode(<$f>); my @missing;
		for my $path (@ARGV) {
			my $v = $top;
			for my $k (split /\./, $path) {
				if (ref $v eq "HASH" && exists $v->{$k}) { $v = $v->{$k} }
				elsif (ref $v eq "ARRAY" && $k =~ /^\d+$/ && $k < @$v) { $v = $v->[$k] }
				else { push @missing, $path; last }
			}
		}
		die "missing: @missing\n" if @missing;
	' "$@"
}

# The fields the issue requires in every survey (docs/sysinfo.md has them all).
SYSINFO_FIELDS="schema hostname kernel.release kernel.version kernel.preempt_model kernel.preempt_rt
	kernel.hz kernel.config_source kernel.cmdline kernel.cmdline_flags cpus.online cpus.model cpus.smt
	cpus.per_cpu clocksource.current clocksource.available rt_throttle.runtime_us rt_throttle.period_us
	tracefs.path tracefs.usable memory.total_kb memory.swap.total_kb virtualization.virtualized
	virtualization.hypervisor_flag virtualization.sys_vendor virtualization.product_name warnings notes"
