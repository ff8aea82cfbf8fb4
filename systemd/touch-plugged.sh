#!/bin/sh
# skat-table: run by skat-table-touch-plugged.service, which udev starts when
# /dev/skat-table/touch appears (70-skat-table.rules, SYSTEMD_WANTS). systemd resolves the
# table's DeviceAllow=/dev/skat-table/touch when the table starts: a touchscreen that appears
# later stays blocked. So a table started before its touchscreen is restarted, once; the
# journal keeps the game where it was. A table that starts after it (at boot, touch.conf
# orders it so) is left alone.
set -u
TABLE=skat-table.service
DEVICE='dev-skat\x2dtable-touch.device'
# A table still starting resolved its devices already: wait until it runs, then compare.
n=0
while [ "$(systemctl is-active "$TABLE")" = activating ] && [ $n -lt 240 ]; do
    sleep 1
    n=$((n + 1))
done
systemctl -q is-active "$TABLE" || exit 0
started=$(systemctl show -p ExecMainStartTimestampMonotonic --value "$TABLE")
plugged=$(systemctl show -p ActiveEnterTimestampMonotonic --value "$DEVICE")
if [ "${plugged:-0}" -gt "${started:-0}" ]; then
    echo "a touchscreen was plugged in after the table started: restarting the table so that" \
         "it reads the touchscreen (the game goes on where it was)"
    systemctl restart "$TABLE"
fi
