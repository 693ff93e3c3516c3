#!/usr/bin/perl
# fake-qemu-monitor.pl SOCKET REGS_FILE - a stand-in for qemu's human monitor
# on a unix socket (scripts/target-probe's tests): the banner and a prompt, then
# for each command line its echo, the contents of REGS_FILE after 'info
# registers -a' and nothing after any other, each answer ended by the prompt;
# one client at a time, until killed. Every command received is appended to
# SOCKET.log.
use strict;
use warnings;
use IO::Socket::UNIX;

my ($path, $regs_file) = @ARGV;
open(my $f, '<', $regs_file) or die "$regs_file: $!\n";
my $regs = do { local $/; <$f> };
close $f;
unlink $path;
my $srv = IO::Socket::UNIX->new(Type => SOCK_STREAM, Local => $path, Listen => 1) or die "$path: $!\n";
open(my $log, '>>', "$path.log") or die "$path.log: $!\n";
$log->autoflush(1);
while (my $c = $srv->accept) {
	$c->autoflush(1);
	print $c "QEMU 7.2.0 monitor - type 'help' for more information\r\n(qemu) ";
	while (my $line = <$c>) {
		$line =~ s/[\r\n]+$//;
		print $log "$line\n";
		# the echo of the command line, with readline's cursor moves, as qemu sends it
		print $c "\e[K$line\r\n";
		print $c $regs if $line eq 'info registers -a';
		print $c "(qemu) ";
	}
}
