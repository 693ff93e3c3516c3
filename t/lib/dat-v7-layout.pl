#!/usr/bin/perl
# dat-v7-layout.pl - where the parts of a trace-cmd v7 (compressed) .dat file
# are, for the tests that cut one short (t/0527): one "name offset" line each,
#   options FIRST END      the first options section: its header, its end
#   flyrecord OFFSET       the flyrecord section's header
#   block CPU OFFSET       a CPU's block of compressed chunks (its u32 count)
#   chunk CPU START END    one chunk: its header, the byte after its data
#   index OFFSET           the options section after the CPU data (its index)
#   size BYTES
# The format: trace-cmd.dat.v7(5); little-endian files only. Exit 1 when the
# file is not such a file.
use strict;
use warnings;

open my $f, '<:raw', $ARGV[0] or die "$ARGV[0]: $!\n";
my $d = do { local $/; <$f> };
my $len = length $d;
exit 1 unless substr($d, 0, 12) eq "\x17\x08Dtracing7\0" && ord(substr($d, 12, 1)) == 0;
my $page = unpack 'V', substr($d, 14, 4);
my $at = index($d, "\0", index($d, "\0", 18) + 1) + 1;	# after the compression's name, version
my $first = unpack 'Q<', substr($d, $at, 8);
my ($off, $fly, $index) = ($at + 8);
while ($off + 16 <= $len) {	# every section in order
	my ($id, $flags, $name, $size) = unpack 'vvVQ<', substr($d, $off, 16);
	printf "options %d %d\n", $off, $off + 16 + $size if $off == $first;
	$fly = $off if $id == 3 && !defined $fly;
	$index = $off if $id == 0 && defined $fly && !defined $index;
	$off += 16 + $size;
}
exit 1 unless defined $fly && defined $index;
print "flyrecord $fly\n";
my ($pos, $cpu) = (int(($fly + 16 + $page - 1) / $page) * $page, 0);
while ($pos + 4 <= $index) {
	my $count = unpack 'V', substr($d, $pos, 4);
	print "block $cpu $pos\n";
	my $p = $pos + 4;
	for (1 .. $count) {
		my ($z) = unpack 'V', substr($d, $p, 4);
		printf "chunk %d %d %d\n", $cpu, $p, $p + 8 + $z;
		$p += 8 + $z;
	}
	$pos = int(($p + $page - 1) / $page) * $page;
	$cpu++;
}
print "index $index\nsize $len\n";
