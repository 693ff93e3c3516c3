#!/bin/sh
# 0003-install-deps.t - scripts/install-deps: quiet and idempotent when every
# package is there; not root with packages missing, the exact apt-get line and
# exit 3; --check installs nothing. A dpkg-query shim on PATH plays the missing
# packages, so nothing is ever installed by this test.
. "$(dirname "$0")/lib/test-lib.sh"
plan 9

DEPS="$TOP/scripts/install-deps"
mkdir -p "$TMP/bin"
chmod 755 "$TMP" "$TMP/bin"
ARCH=$(dpkg --print-architecture)
# dpkg-query shim: iperf3 and fio are not installed, every other package is (for this machine's
# architecture; 'Status Architecture' lines as install-deps asks for them)
cat > "$TMP/bin/dpkg-query" <<SHIM
#!/bin/sh
case "\$*" in
*" iperf3"|*" fio") printf 'unknown ok not-installed $ARCH\\n' ;;
*) printf 'install ok installed $ARCH\\n' ;;
esac
SHIM
# apt-get shim: any call is a failure of this test
printf '#!/bin/sh\necho "apt-get called: $*" >&2\nexit 99\n' > "$TMP/bin/apt-get"
chmod 755 "$TMP/bin/dpkg-query" "$TMP/bin/apt-get"
cp "$TMP/bin/dpkg-query" "$TMP/bin/dpkg-query.missing"
printf '#!/bin/sh\nprintf "install ok installed %s\\n"\n' "$ARCH" > "$TMP/bin/dpkg-query.all"
chmod 755 "$TMP/bin/dpkg-query.all"

# as_user CMD... - run as an unprivileged user (nobody) when root, else as is
as_user() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups env PATH="$TMP/bin:$PATH" "$@"
	else
		env PATH="$TMP/bin:$PATH" "$@"
	fi
}

cp "$TMP/bin/dpkg-query.all" "$TMP/bin/dpkg-query"
run_cmd env PATH="$TMP/bin:$PATH" "$DEPS"
is "$rc:$out$err" "0:" "deps-1.1 everything installed: exit 0, silent, apt-get not run"
run_cmd env PATH="$TMP/bin:$PATH" "$DEPS"
is "$rc:$out$err" "0:" "deps-1.2 idempotent: the same the second time"
run_cmd as_user "$DEPS"
is "$rc:$out$err" "0:" "deps-1.3 not root and nothing missing: exit 0, silent"

cp "$TMP/bin/dpkg-query.missing" "$TMP/bin/dpkg-query"
run_cmd as_user "$DEPS"
is "$rc" 3 "deps-2.1 not root, packages missing: exit 3"
is "$(printf '%s\n' "$err" | grep '^apt-get')" "apt-get install -y iperf3 fio" \
	"deps-2.2 ... prints the exact apt-get install line of the missing packages"
is "$out" "" "deps-2.3 ... on stderr only"

run_cmd env PATH="$TMP/bin:$PATH" "$DEPS" --check
is "$rc:$err" "3:install-deps: missing packages: iperf3 fio" "deps-3.1 --check: lists the missing packages, exit 3"
unlike_apt=$(printf '%s' "$err" | grep -c 'apt-get called')
is "$unlike_apt" 0 "deps-3.2 --check never runs apt-get, even as root"

# libtracecmd-dev installed for arm64 only (a cross build's copy replaced the native one)
cat > "$TMP/bin/dpkg-query" <<SHIM
#!/bin/sh
case "\$*" in
*" libtracecmd-dev") printf 'install ok installed arm64\\n' ;;
*) printf 'install ok installed $ARCH\\n' ;;
esac
SHIM
run_cmd env PATH="$TMP/bin:$PATH" "$DEPS" --check
is "$rc:$err" "3:install-deps: missing packages: libtracecmd-dev" \
	"deps-3.3 --check: a package installed only for another architecture is missing"
done_testing
