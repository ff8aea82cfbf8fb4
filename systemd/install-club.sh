#!/bin/sh
# Install the club server and the club's Mosquitto on a Debian box (a laptop, a small PC, a Pi).
#
#   sudo systemd/install-club.sh             # from a checkout; TABLES=20 for 20 table accounts
#
# What it does (again and again without harm; a second run changes nothing):
#   0. the Debian packages: mosquitto, python3-venv (apt-get update first)
#   1. a system user "skat-club"
#   2. the source under /opt/skat-club/src and a virtual environment /opt/skat-club/venv with
#      the package and its club extras (.[club]); rebuilt only when the source changed
#   3. /etc/skat-club (0750 root:skat-club) with club.toml (an example, only if there is none;
#      0640) and /var/lib/skat-club (0750 skat-club) for the database
#   4. the broker: /etc/mosquitto/conf.d/skat-club.conf, the ACL and the password file in
#      /etc/mosquitto/skat-club (owner mosquitto, 0600), an account "server" (its password in
#      /etc/skat-club/server.password, 0640 root:skat-club) and one per table 1..TABLES (12),
#      each table's password in /etc/skat-club/tables/T.password (0600 root) to copy to the
#      table; an account that exists keeps its password. Mosquitto is restarted when its
#      config changed, reloaded when only accounts or the ACL did
#   5. the unit /etc/systemd/system/skat-table-club.service, enabled and started; restarted
#      only when the package or the unit changed
# docs/club.md, "Installing the server", says what to do before the first evening.
set -eu

PREFIX=/opt/skat-club
SRC="$(cd "$(dirname "$0")/.." && pwd)"
USER_NAME=skat-club
PYTHON="${PYTHON:-python3}"
TABLES="${TABLES:-12}"
ETC=/etc/skat-club
BROKER_ETC=/etc/mosquitto/skat-club
. "$SRC/systemd/install-lib.sh"

if [ "$(id -u)" -ne 0 ]; then
    echo "install-club.sh: run me as root (sudo $0)" >&2
    exit 1
fi
case "$TABLES" in
    ''|*[!0-9]*|0) echo "install-club.sh: TABLES=$TABLES: say how many tables, e.g. TABLES=12" >&2
                   exit 1 ;;
esac
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "install-club.sh: the club server needs Python 3.11 or newer; $PYTHON is not." \
         "Name another with: sudo PYTHON=python3.11 systemd/install-club.sh" >&2
    exit 1
fi

# 0. Packages.
if command -v apt-get >/dev/null 2>&1; then
    apt-get update -q >/dev/null || echo "install-club.sh: apt-get update failed;" \
        "installing from the package lists there are" >&2
    apt-get install -y --no-install-recommends mosquitto python3-venv >/dev/null
fi

# 1. The user.
skat_system_user "$USER_NAME" /var/lib/skat-club

# 2. Source and virtual environment.
CHANGED=0
skat_copy_source "$SRC" "$PREFIX/src"
[ -x "$PREFIX/venv/bin/python" ] || "$PYTHON" -m venv "$PREFIX/venv"
INSTALLED="$(skat_fingerprint "$PREFIX/src" "$PREFIX/venv/bin/python")"
STAMP="$PREFIX/installed.sha256"
if [ -x "$PREFIX/venv/bin/skat-table" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$INSTALLED" ]; then
    echo "install-club.sh: the package is installed as it is in $SRC (nothing to build)"
else
    CHANGED=1
    "$PREFIX/venv/bin/python" -m pip install --quiet "$PREFIX/src[club]"
    rm -rf "$PREFIX/src/build" "$PREFIX/src"/*.egg-info
    echo "$INSTALLED" > "$STAMP"
fi
# The command on PATH, unless a table's install has it (a Pi that is both: use the full path).
LINK=/usr/local/bin/skat-table
case "$(readlink "$LINK" 2>/dev/null || echo none)" in
    none|"$PREFIX"/*) ln -sfn "$PREFIX/venv/bin/skat-table" "$LINK" ;;
    *) echo "install-club.sh: $LINK is the table's; the club's is $PREFIX/venv/bin/skat-table" ;;
esac

# 3. Config and data directory.
install -d -m 0750 -o root -g "$USER_NAME" "$ETC"
if [ ! -e "$ETC/club.toml" ]; then
    install -m 0640 -o root -g "$USER_NAME" "$PREFIX/src/systemd/club.example.toml" "$ETC/club.toml"
    echo "install-club.sh: wrote $ETC/club.toml: put in the club, the tournament and the" \
         "director's password hash (skat-table club hash-password)"
fi
install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" /var/lib/skat-club
install -d -m 0700 -o root -g root "$ETC/tables"

# 4. The broker: its config, ACL and accounts.
BROKER_CHANGED=0
BROKER_RELOAD=0
install -d -m 0755 /etc/mosquitto/conf.d
if ! cmp -s "$PREFIX/src/systemd/mosquitto/skat-club.conf" /etc/mosquitto/conf.d/skat-club.conf; then
    install -m 0644 "$PREFIX/src/systemd/mosquitto/skat-club.conf" /etc/mosquitto/conf.d/skat-club.conf
    BROKER_CHANGED=1
fi
install -d -m 0750 -o root -g mosquitto "$BROKER_ETC"
if ! cmp -s "$PREFIX/src/systemd/mosquitto/skat-club.acl" "$BROKER_ETC/acl"; then
    install -m 0600 -o mosquitto -g mosquitto "$PREFIX/src/systemd/mosquitto/skat-club.acl" \
        "$BROKER_ETC/acl"
    BROKER_RELOAD=1
fi
[ -e "$BROKER_ETC/passwd" ] || install -m 0600 -o mosquitto -g mosquitto /dev/null "$BROKER_ETC/passwd"

# account USER FILE GROUP MODE: a broker account with a new random password, written to FILE,
# unless the password file has the user already (then nothing changes).
NEW="$(mktemp)"
trap 'rm -f "$NEW" "$NEW.all"' EXIT
account() {
    if grep -q "^$1:" "$BROKER_ETC/passwd"; then
        [ -e "$2" ] || echo "install-club.sh: the broker has the account $1 but $2 is missing:" \
            "delete the line '$1:...' from $BROKER_ETC/passwd and run me again for a new password" >&2
        return 0
    fi
    password="$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | cut -c1-24)"
    printf '%s:%s\n' "$1" "$password" >> "$NEW"
    printf '%s\n' "$password" | (umask 077 && cat > "$2.new")
    install -m "$4" -o root -g "$3" "$2.new" "$2"
    rm -f "$2.new"
}
account server "$ETC/server.password" "$USER_NAME" 0640
t=1
while [ "$t" -le "$TABLES" ]; do
    account "$t" "$ETC/tables/$t.password" root 0600
    t=$((t + 1))
done
if [ -s "$NEW" ]; then
    # -U hashes every line of a plain "user:password" file: only the new ones are in it.
    mosquitto_passwd -U "$NEW"
    cat "$BROKER_ETC/passwd" "$NEW" > "$NEW.all"
    install -m 0600 -o mosquitto -g mosquitto "$NEW.all" "$BROKER_ETC/passwd"
    echo "install-club.sh: new broker accounts: $(cut -d: -f1 "$NEW" | tr '\n' ' ')(the tables'" \
         "passwords are in $ETC/tables/: copy each to its table as /etc/skat-table/club.password)"
    BROKER_RELOAD=1
fi
systemctl enable mosquitto.service
if [ "$BROKER_CHANGED" = 1 ]; then
    systemctl restart mosquitto.service || true
elif [ "$BROKER_RELOAD" = 1 ]; then
    systemctl reload-or-restart mosquitto.service || true
else
    systemctl start mosquitto.service || true
fi

# 5. The unit.
skat_install_file "$PREFIX/src/systemd/skat-table-club.service" \
    /etc/systemd/system/skat-table-club.service
if command -v systemd-analyze >/dev/null 2>&1; then
    systemd-analyze verify /etc/systemd/system/skat-table-club.service
fi
systemctl daemon-reload
systemctl enable skat-table-club.service
if [ "$CHANGED" = 1 ]; then
    systemctl restart skat-table-club.service || true
else
    echo "install-club.sh: nothing changed: the club server runs on as it is"
    systemctl start skat-table-club.service || true
fi
if ! grep -q '^password_hash' "$ETC/club.toml"; then
    echo "install-club.sh: no director password yet: run skat-table club hash-password, put the" \
         "hash in $ETC/club.toml ([director] password_hash) and: systemctl restart skat-table-club"
fi
systemctl --no-pager status skat-table-club.service || true
