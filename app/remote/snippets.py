"""The shell snippets sbctune runs on a Pi, in one place.

Each snippet is a POSIX `sh -c` script that takes every value as a positional argument
(`sh -c SNIPPET sh ARG1 ARG2 ...`), so nothing read from the Pi or typed by the user is ever
pasted into shell text. Files are written by ONE helper, `sbctune_write CONTENT PATH`:
umask 022 (never writable by other users), a temporary file next to the target named
`PATH.sbctune-tmp.<pid>`, then an atomic rename, so a reader (or a guard that fires mid-way)
sees the old file or the new one, never half of one.
"""

from __future__ import annotations

# The one write-file helper, as a shell function for scripts that write several files.
# The subshell keeps its umask and `exit` to itself.
WRITE_FILE_FUNCTION = (
    'sbctune_write() { (umask 022; t="$2.sbctune-tmp.$$"; '
    'if printf "%s" "$1" >"$t" && mv -f -- "$t" "$2"; then exit 0; fi; '
    'rm -f -- "$t"; exit 1); }'
)

# `sh -c WRITE_FILE sh CONTENT PATH`
WRITE_FILE = WRITE_FILE_FUNCTION + '\nsbctune_write "$1" "$2"'

# A kernel value file (sysfs/procfs) cannot be renamed over: it is written in place. printf's
# own error would be "I/O error"; tee reports the kernel's reason ("Invalid argument").
# `sh -c WRITE_KNOB sh VALUE PATH`
WRITE_KNOB = 'printf "%s\\n" "$1" | tee -- "$2" >/dev/null'

# Put a knob back only where it differs: a knob the kernel refused (EINVAL on xhci_hcd's IRQ)
# kept its value, and writing it again would fail the revert for nothing.
RESTORE_KNOB = '[ "$(cat -- "$2" 2>/dev/null)" = "$1" ] || ' + WRITE_KNOB

# An interrupt found again by its handler name, not its number (Linux allocates IRQ numbers
# as devices probe: after a reboot the NIC's vectors may have other numbers, and its old numbers
# another device's). /proc/interrupts shows each line's action names last, joined by ", "
# (kernel/irq/proc.c show_interrupts: "  %s" then ", %s" per further action). The ORD-th line
# (0 first) with an action called exactly NAME: the first comma piece ends with it after a
# blank, a later piece is it; compared with `==` only (awk -v), never made into a pattern.
# Prints the number, or nothing where no such interrupt is there now.
IRQ_BY_NAME_FUNCTION = """\
irq_by_name() {
  awk -v name="$1" -v ord="$2" '
    { n = $1; sub(/:$/, "", n); if (n !~ /^[0-9]+$/) next
      k = split($0, part, ","); hit = 0
      for (i = 1; i <= k; i++) {
        p = part[i]; sub(/^[ \\t]+/, "", p); sub(/[ \\t]+$/, "", p)
        if (i > 1) { if (p == name) hit = 1; continue }
        at = length(p) - length(name)
        if (at > 0 && substr(p, at + 1) == name && substr(p, at, 1) ~ /[ \\t]/) hit = 1
      }
      if (hit && seen++ == ord + 0) { print n; exit }
    }' "$3"
}
"""

# Writes an interrupt's CPU mask where its handler NAME is now (`sh -c WRITE_IRQ_AFFINITY sh
# VALUE NAME ORD INTERRUPTS IRQDIR [restore]`; INTERRUPTS is /proc/interrupts, IRQDIR /proc/irq).
# Where no interrupt of that name is there (the NIC not up yet: NetworkManager's dispatcher and
# the udev rule run at-boot.sh again when it comes up) it says so and writes nothing: never the
# old number, which may be another device's now. `restore`: only where the value differs.
WRITE_IRQ_AFFINITY = (
    IRQ_BY_NAME_FUNCTION
    + 'n=$(irq_by_name "$2" "$3" "$4")\n'
    + 'if [ -z "$n" ]; then\n'
    + '  printf \'sbctune: no interrupt called "%s" (number %s of that name) in %s now: '
    + 'its CPUs were not set\\n\' "$2" "$(($3 + 1))" "$4" >&2\n'
    + "  exit 3\nfi\n"
    + 'f="$5/$n/smp_affinity"\n'
    + 'printf \'sbctune: interrupt "%s" is %s now\\n\' "$2" "$n"\n'
    + 'if [ "$6" = restore ] && [ "$(cat -- "$f" 2>/dev/null)" = "$1" ]; then exit 0; fi\n'
    + 'printf "%s\\n" "$1" | tee -- "$f" >/dev/null\n'
)

# Shows the CPU mask of the interrupt with handler NAME (`sh -c READ_IRQ_AFFINITY sh NAME ORD
# INTERRUPTS IRQDIR`): nothing and exit 3 where there is none now.
READ_IRQ_AFFINITY = (
    IRQ_BY_NAME_FUNCTION
    + 'n=$(irq_by_name "$1" "$2" "$3")\n'
    + '[ -n "$n" ] || { printf \'no interrupt called "%s" now\\n\' "$1" >&2; exit 3; }\n'
    + 'cat -- "$4/$n/smp_affinity"\n'
)

# Restore a file from a copy taken before it was edited; no copy means it was never edited.
# `sh -c RESTORE_COPY sh COPY PATH`
RESTORE_COPY = '[ ! -e "$1" ] || cp -- "$1" "$2"'

# `kill_group PGID`: ends a detached guard's process group (setsid made its pid the group id).
# `kill -TERM -PGID`, without `--`: dash's kill calls `--` an "Illegal number" and busybox's an
# "invalid number", so that form never stopped a guard there. Group 0 or 1 (this shell's own
# group, every process) and anything not a plain number are refused.
KILL_GROUP_FUNCTION = """\
kill_group() {
  case "$1" in ''|*[!0-9]*|0*|1) return 1 ;; esac
  kill -TERM "-$1" 2>/dev/null
}
"""

# Start a script detached from the SSH session (its own session and process group, so a lost
# connection or a killed app does not take it down); wait until it wrote its PID file.
# `sh -c START_DETACHED sh SCRIPT PIDFILE`. Without `setsid` (OpenWrt's BusyBox is built
# without it: package/utils/busybox/Config-defaults.in, BUSYBOX_DEFAULT_SETSID n) nothing can be
# detached so: say so, instead of a silent wait and "exit code 1" (audit 45).
NO_SETSID = (
    "sbctune: this Pi has no setsid command, which its auto-revert guard needs where systemd "
    "does not run (install setsid from util-linux, or a BusyBox built with it)"
)
START_DETACHED = (
    f"command -v setsid >/dev/null 2>&1 || {{ echo '{NO_SETSID}' >&2; exit 3; }}\n"
    'setsid sh "$1" </dev/null >/dev/null 2>&1 &\n'
    'i=0; while [ ! -s "$2" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done\n'
    '[ -s "$2" ]'
)

# Read files by shell glob, each as: path NUL ok|err NUL content-or-error NUL (a file that
# answers ENOENT on read is a fact, not a failure). `sh -c READ_FILES sh GLOB...`
# A one-line file (every sysfs/procfs knob) is read with the shell's own `read`: no process
# per file, which costs tens of milliseconds on a slow or emulated Pi. Anything else (an
# error, an empty or multi-line file) goes through cat, for its content or the kernel's words.
READ_FILES = (
    'for p in "$@"; do for f in $p; do [ -e "$f" ] || continue; printf "%s\\0" "$f"; v=; w=; '
    'if { IFS= read -r v && ! IFS= read -r w && [ -z "$w" ]; } 2>/dev/null <"$f"; then '
    'printf "ok\\0%s\\0" "$v"; '
    'elif v=$(cat -- "$f" 2>&1); then printf "ok\\0%s\\0" "$v"; '
    'else printf "err\\0%s\\0" "$v"; fi; done; done'
)

# The Pi sampler's loop (see sbctune.measure.sampler).
# $1 iface, $2 interval (s), $3 max samples, $4 max seconds, $5 ERE picking /proc/interrupts
# lines (the CPU header, the NIC's lines and the given IRQ numbers; Python filters exactly).
# The deadline uses /proc/uptime's whole seconds: sh arithmetic is integer only.
# `sleep 0.5` needs a fractional sleep (GNU, busybox FANCY_SLEEP); `sleep 1` is the fallback.
# Session.start closes stdin at once, so the loop cannot wait for EOF there: it stops at its
# limits, when the channel closes (SIGPIPE, or a failed printf where SIGPIPE is ignored), or
# when stop() kills it. printf, not echo: dash's echo would interpret backslashes.
# Power: get_throttled is the Raspberry Pi firmware driver's sysfs file (raspberrypi/linux
# drivers/firmware/raspberrypi.c, `sprintf(buf, "%x\n", ...)`) on the firmware device under the
# soc bus: soc/soc:firmware on a Pi 4 and earlier, soc@107c000000/soc@107c000000:firmware on a
# Pi 5 (bcm2712.dtsi) - found once, before the loop. Files a kernel lacks read as "-".
# /etc/sbctune-lab-cpu exists only in the virtual Pi lab (sbctune.lab.nsinit): its /proc/stat
# is the lab host's, and the line says so with each sample (sampler_data.LabCpu).
SAMPLER_LOOP = r"""
net=/sys/class/net/$1/statistics
thr=
for f in /sys/devices/platform/soc/soc:firmware/get_throttled \
         /sys/devices/platform/soc*/soc*:firmware/get_throttled; do
    [ -r "$f" ] && { thr=$f; break; }
done
zone=/sys/class/thermal/thermal_zone0/temp
clk=/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq
labcpu=
{ read -r labcpu </etc/sbctune-lab-cpu; } 2>/dev/null
read up _ </proc/uptime
deadline=$(( ${up%.*} + $4 ))
left=$3
iv=$2
pat=$5
shift 5  # what is left: files to watch (a tuning session's state and the knobs it set)
prev=
seq=0
while [ "$left" -gt 0 ]; do
    read up _ </proc/uptime
    [ "${up%.*}" -lt "$deadline" ] || break
    printf '@@sbctune-sample %s %s\n' "$seq" "$up" || exit 0
    echo "@@sbctune-stat"
    grep '^cpu' /proc/stat
    echo "@@sbctune-softirqs"
    grep -E '^ *(CPU|NET_RX:|NET_TX:)' /proc/softirqs
    echo "@@sbctune-interrupts"
    grep -E -e "$pat" /proc/interrupts
    rx=; tx=
    { read rx <"$net/rx_bytes"; read tx <"$net/tx_bytes"; } 2>/dev/null
    printf '@@sbctune-net %s %s\n' "$rx" "$tx"
    t=; c=; f=
    { [ -n "$thr" ] && read t <"$thr"; read c <"$zone"; read f <"$clk"; } 2>/dev/null
    printf '@@sbctune-power %s %s %s\n' "${t:--}" "${c:--}" "${f:--}"
    [ -z "$labcpu" ] || printf '@@sbctune-labcpu %s\n' "$labcpu"
    if [ $# -gt 0 ]; then
        cur=
        for p in "$@"; do v=-; { read -r v <"$p"; } 2>/dev/null; cur="$cur/$v"; done
        if [ "$cur" != "$prev" ]; then
            echo "@@sbctune-tuning"
            for p in "$@"; do v=-; { read -r v <"$p"; } 2>/dev/null; printf 'v %s\n' "$v"; done
            prev=$cur
        fi
    fi
    printf '@@sbctune-end %s\n' "$seq" || exit 0
    seq=$((seq + 1))
    left=$((left - 1))
    sleep "$iv" 2>/dev/null || sleep 1 || exit 0
done
"""


def write_file_argv(path: str, content: str) -> list[str]:
    """The command (run as root) that writes `content` to `path` atomically."""
    return ["sh", "-c", WRITE_FILE, "sh", content, path]
