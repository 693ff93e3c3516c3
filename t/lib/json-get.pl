#!/usr/bin/perl
# json-get.pl - the one JSON reader of preflight's shell tests: print the value
# at a path of a JSON file (test-lib.sh's json_get calls it).
#
#   json-get.pl FILE PATH...     (FILE - reads stdin; one line printed per PATH)
#   json-get.pl FILE             only whether FILE is JSON: exit 0 or 2, nothing printed
#                                (the whole document printed back costs ten times the parse)
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

my $text;	# the document; pos($text) is where the parser is
my $strings = JSON::PP->new->allow_nonref;	# decodes the strings that hold escapes

# A node is [type (o|a|s|n|l), value, start offset, end offset]: arrays, not hashes,
# and the cursor in pos() rather than copied in and out of it, because a results.json
# of a live run holds some 10^5 values (3.8 MB took 3 s; the tests read it many times).
use constant { T => 0, V => 1, S => 2, E => 3 };

# fail MSG - bad input: one line on stderr, exit 2
sub fail { print STDERR "json-get: $ARGV[0]: $_[0]\n"; exit 2; }

# value - parse the value at pos($text), white space first, into a node (its first
# character says which kind: one pattern tried, not five)
sub value {
	$text =~ /\G\s*/gc;
	my $start = pos($text);
	my $c = substr($text, $start, 1);
	if ($c eq '"') {
		$text =~ /\G("(?:[^"\\]++|\\.)*+")/gc or fail("bad JSON at offset $start");
		my $raw = $1;
		return [ 's', index($raw, '\\') < 0 ? substr($raw, 1, -1) : $strings->decode($raw), $start, pos($text) ];
	}
	if ($c eq '{') {
		my %h;
		$text =~ /\G\{\s*/gc;
		unless ($text =~ /\G\}/gc) {
			while (1) {
				my $k = value();
				$k->[T] eq 's' or fail("object key is not a string at offset $k->[S]");
				$text =~ /\G\s*/gc;
				$text =~ /\G:/gc or fail("':' expected at offset " . pos($text));
				$h{$k->[V]} = value();
				$text =~ /\G\s*/gc;
				next if $text =~ /\G,/gc;
				last if $text =~ /\G\}/gc;
				fail("',' or '}' expected at offset " . pos($text));
			}
		}
		return [ 'o', \%h, $start, pos($text) ];
	}
	if ($c eq '[') {
		my @a;
		$text =~ /\G\[\s*/gc;
		unless ($text =~ /\G\]/gc) {
			while (1) {
				push @a, value();
				$text =~ /\G\s*/gc;
				next if $text =~ /\G,/gc;
				last if $text =~ /\G\]/gc;
				fail("',' or ']' expected at offset " . pos($text));
			}
		}
		return [ 'a', \@a, $start, pos($text) ];
	}
	return [ 'n', $1, $start, pos($text) ] if $text =~ /\G(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)/gc;
	return [ 'l', $1, $start, pos($text) ] if $text =~ /\G(true|false|null)/gc;
	fail("bad JSON at offset $start");
}

# scalar_eq NODE STRING - the node is a scalar printed as STRING
sub scalar_eq { my ($n, $s) = @_; return $n->[T] =~ /^[snl]$/ && $n->[V] eq $s; }

# walk NODE PARTS... - a list of the nodes the dotted parts lead to, undef when none
# ('*' over an array: the elements that have the rest of the path, maybe none)
sub walk {
	my ($node, @parts) = @_;
	return [$node] unless @parts;
	if ($node->[T] eq 'a' && $parts[0] eq '*') {
		return [ map { @{ walk($_, @parts[1 .. $#parts]) // [] } } @{ $node->[V] } ];
	}
	# the longest run of parts that names a step here ('p99.9' before 'p99')
	for my $n (reverse 1 .. @parts) {
		my $step = join '.', @parts[0 .. $n - 1];
		my @rest = @parts[$n .. $#parts];
		if ($node->[T] eq 'o') {
			return walk($node->[V]{$step}, @rest) if exists $node->[V]{$step};
		} elsif ($node->[T] eq 'a') {
			if ($step =~ /^\d+$/) {
				return walk($node->[V][$step], @rest) if $step < @{ $node->[V] };
			} elsif ($step =~ /^([^=]+)=(.*)$/s) {
				my ($k, $want) = ($1, $2);
				my ($el) = grep { $_->[T] eq 'o' && exists $_->[V]{$k} && scalar_eq($_->[V]{$k}, $want) }
					@{ $node->[V] };
				return walk($el, @rest) if $el;
			}
		}
	}
	return undef;
}

# show NODE - the text of a value as described at the top
sub show {
	my $n = shift;
	return $n->[V] if $n->[T] ne 'o' && $n->[T] ne 'a';
	my $raw = substr($text, $n->[S], $n->[E] - $n->[S]);
	return JSON::PP->new->canonical->encode(JSON::PP->new->decode($raw));
}

@ARGV >= 1 or die "usage: json-get.pl FILE [PATH...]\n";
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
pos($text) = 0;
my $root = value();
$text =~ /\G\s*/gc;
pos($text) == length $text or fail("text after the JSON value at offset " . pos($text));

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
