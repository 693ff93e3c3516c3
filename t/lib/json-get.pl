#!/usr/bin/perl
# json-get.pl - the one JSON reader of preflight's shell tests: print the value
# at a path of a JSON file (test-lib.sh's json_get calls it).
#
#   json-get.pl FILE PATH...     (FILE - reads stdin; one line printed per PATH)
#
# A PATH is dotted, a leading '.' optional ('.kernel.release', 'tasks.1.policy').
# A step is an object key, an array index, KEY=VALUE (the first array element
# whose KEY is VALUE: 'tasks.name=ctl100.jobs') or '*' (every element of an
# array, printed space separated: 'warnings.*.id'). A key that holds dots
# ('p99.9') is found as it is: at each step the longest run of dotted parts
# that the object has wins. The empty path is the whole document.
#
# Scalars print as the file writes them: numbers digit for digit (1.50 stays
# 1.50), strings unquoted, null / true / false as those words. Arrays and
# objects print as compact canonical JSON. A path the document does not have
# prints nothing on stdout, says so on stderr and makes the exit status 1; bad
# JSON exits 2.
#
# The file is parsed here rather than by JSON::PP alone so that numbers keep
# their text; JSON::PP still decodes strings and prints containers.
use strict;
use warnings;
use JSON::PP;

my ($text, $at);
my $strings = JSON::PP->new->allow_nonref;	# decodes the strings that hold escapes

# fail MSG - bad input: one line on stderr, exit 2
sub fail { print STDERR "json-get: $ARGV[0]: $_[0]\n"; exit 2; }

# ws - skip white space at $at
sub ws { pos($text) = $at; $text =~ /\G\s*/gc; $at = pos($text); }

# value - parse the value at $at into a node: { t => o|a|s|n|l, v => ..., s => start, e => end }
sub value {
	ws();
	my $start = $at;
	pos($text) = $at;
	my $node;
	if ($text =~ /\G\{/gc) {
		my %h;
		$at = pos($text);
		ws();
		if (substr($text, $at, 1) eq '}') {
			$at++;
		} else {
			while (1) {
				ws();
				my $k = value();
				$k->{t} eq 's' or fail("object key is not a string at offset $k->{s}");
				ws();
				substr($text, $at, 1) eq ':' or fail("':' expected at offset $at");
				$at++;
				$h{$k->{v}} = value();
				ws();
				my $c = substr($text, $at++, 1);
				last if $c eq '}';
				$c eq ',' or fail("',' or '}' expected at offset " . ($at - 1));
			}
		}
		$node = { t => 'o', v => \%h };
	} elsif ($text =~ /\G\[/gc) {
		my @a;
		$at = pos($text);
		ws();
		if (substr($text, $at, 1) eq ']') {
			$at++;
		} else {
			while (1) {
				push @a, value();
				ws();
				my $c = substr($text, $at++, 1);
				last if $c eq ']';
				$c eq ',' or fail("',' or ']' expected at offset " . ($at - 1));
			}
		}
		$node = { t => 'a', v => \@a };
	} elsif ($text =~ /\G("(?:[^"\\]|\\.)*")/gc) {
		my $raw = $1;
		$node = { t => 's', v => index($raw, '\\') < 0 ? substr($raw, 1, -1) : $strings->decode($raw) };
		$at = pos($text);
	} elsif ($text =~ /\G(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)/gc) {
		$node = { t => 'n', v => $1 };
		$at = pos($text);
	} elsif ($text =~ /\G(true|false|null)/gc) {
		$node = { t => 'l', v => $1 };
		$at = pos($text);
	} else {
		fail("bad JSON at offset $start");
	}
	$node->{s} = $start;
	$node->{e} = $at;
	return $node;
}

# scalar_eq NODE STRING - the node is a scalar printed as STRING
sub scalar_eq { my ($n, $s) = @_; return $n->{t} =~ /^[snl]$/ && $n->{v} eq $s; }

# walk NODE PARTS... - a list of the nodes the dotted parts lead to, undef when none
# ('*' over an array: the elements that have the rest of the path, maybe none)
sub walk {
	my ($node, @parts) = @_;
	return [$node] unless @parts;
	if ($node->{t} eq 'a' && $parts[0] eq '*') {
		return [ map { @{ walk($_, @parts[1 .. $#parts]) // [] } } @{ $node->{v} } ];
	}
	# the longest run of parts that names a step here ('p99.9' before 'p99')
	for my $n (reverse 1 .. @parts) {
		my $step = join '.', @parts[0 .. $n - 1];
		my @rest = @parts[$n .. $#parts];
		if ($node->{t} eq 'o') {
			return walk($node->{v}{$step}, @rest) if exists $node->{v}{$step};
		} elsif ($node->{t} eq 'a') {
			if ($step =~ /^\d+$/) {
				return walk($node->{v}[$step], @rest) if $step < @{ $node->{v} };
			} elsif ($step =~ /^([^=]+)=(.*)$/s) {
				my ($k, $want) = ($1, $2);
				my ($el) = grep { $_->{t} eq 'o' && exists $_->{v}{$k} && scalar_eq($_->{v}{$k}, $want) }
					@{ $node->{v} };
				return walk($el, @rest) if $el;
			}
		}
	}
	return undef;
}

# show NODE - the text of a value as described at the top
sub show {
	my $n = shift;
	return $n->{v} if $n->{t} ne 'o' && $n->{t} ne 'a';
	my $raw = substr($text, $n->{s}, $n->{e} - $n->{s});
	return JSON::PP->new->canonical->encode(JSON::PP->new->decode($raw));
}

@ARGV >= 2 or die "usage: json-get.pl FILE PATH...\n";
my $file = shift @ARGV;
{
	local $/;
	my $fh;
	if ($file eq '-') {
		$fh = \*STDIN;
	} else {
		open $fh, '<', $file or do { print STDERR "json-get: $file: $!\n"; exit 2; };
	}
	$text = <$fh>;
	defined $text or $text = '';
	utf8::decode($text);
}
binmode STDOUT, ':encoding(UTF-8)';
unshift @ARGV, $file;	# for fail()'s messages
$at = 0;
my $root = value();
ws();
$at == length $text or fail("text after the JSON value at offset $at");

my $status = 0;
for my $path (@ARGV[1 .. $#ARGV]) {
	(my $p = $path) =~ s/^\.//;
	my $nodes = walk($root, length $p ? split(/\./, $p, -1) : ());
	if (!$nodes) {
		print STDERR "json-get: $file: no $path\n";
		$status = 1;
		next;
	}
	print join(' ', map { show($_) } @$nodes), "\n";
}
exit $status;
