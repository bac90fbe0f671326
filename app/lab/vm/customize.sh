#!/bin/sh
# mmdebstrap customize hook: turns the bookworm root in "$1" into the VM lab's "Pi".
# "$2" is a file holding "pi:<password>" (read by chpasswd, never on a command line).
# "$3" is the lab's address plan: lines "<mac> <address/prefix> <connection name>".
set -eu
root="$1"
pwfile="$2"
plan="$3"

echo raspberrypi > "$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n' > "$root/etc/hosts"
printf '/dev/vda\t/\text4\terrors=remount-ro\t0\t1\n' > "$root/etc/fstab"

# The user `pi` whose sudo asks for the password (as on Raspberry Pi OS after first boot).
chroot "$root" useradd --create-home --shell /bin/bash --groups sudo,netdev pi
chroot "$root" chpasswd < "$pwfile"

# Only the lab's local repository (served at lab time on the management link): the VM never
# reaches a mirror. [trusted=yes]: the repository is local and unsigned.
rm -f "$root/etc/apt/sources.list"
rm -f "$root"/etc/apt/sources.list.d/*
echo 'deb [trusted=yes] http://198.19.252.1:8080/ ./' > "$root/etc/apt/sources.list.d/sbctune-lab.list"

# NetworkManager owns every NIC (as on Raspberry Pi OS bookworm); static addresses by MAC.
mkdir -p "$root/etc/NetworkManager/system-connections"
while read -r mac addr name; do
    [ -n "$mac" ] || continue
    f="$root/etc/NetworkManager/system-connections/$name.nmconnection"
    cat > "$f" <<CONN
[connection]
id=$name
type=ethernet
autoconnect=true

[ethernet]
mac-address=$mac

[ipv4]
method=manual
address1=$addr
never-default=true

[ipv6]
method=disabled
CONN
    chmod 600 "$f"
done < "$plan"

# Boot speed on TCG: no timers that wake apt/man-db, no waiting for "online".
for unit in apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer \
            fstrim.timer NetworkManager-wait-online.service systemd-timesyncd.service; do
    ln -sf /dev/null "$root/etc/systemd/system/$unit"
done
# A login prompt on the serial console, for debugging a lab by hand.
chroot "$root" systemctl enable serial-getty@ttyS0.service >/dev/null 2>&1 || true
# sshd answers before DNS lookups time out (the VM has no resolver).
printf 'UseDNS no\n' > "$root/etc/ssh/sshd_config.d/sbctune-lab.conf"
