"""A probe that gave up, told only by the driver's own words (probe_exits.json): rtw88's
rtw_sdio_probe() prints "failed to setup chip information" and returns -ENODEV, which the
driver core logs at debug level only (drivers/base/dd.c call_driver_probe()), so no "probe of
... failed with error" line follows. The finding names the probe function that prints the line
on its error exit, as the kernel's source has it."""

from __future__ import annotations

from sbctune.catalog.old_formats import old_probe_exit
from sbctune.catalog.probe_exits import probe_exit
from sbctune.inventory.model import Finding, Nic


def _exit_of(line: str) -> tuple[str, str] | None:
    """(the driver, the probe functions) of a probe-exit line: the line's words are tried as
    its driver, as the table's reader tries only a driver whose probe prints the message; an
    older kernel's line, by its row of old_formats.json (rt2x00lib's 3.x "phy0 ->
    rt2x00lib_probe_dev: Error - Failed to allocate device.")."""
    for word in line.split()[:8]:
        if (found := probe_exit(word, line)) is not None:
            where = ", ".join(
                f"{p.partition(':')[2]}() in {p.partition(':')[0]}" for p in found.files[:2]
            )
            return word, f"{where} in the kernel's source"
    if (row := old_probe_exit(line)) is not None and (printer := row.library or row.driver):
        # "repo@commit path/file.c function(): ...": the file and function, of that tree
        tree, _, rest = row.source.partition(" ")
        return printer, f"{rest.partition(':')[0]} in an older kernel's source ({tree})"
    return None


def probe_exit_findings(nic: Nic, label: str) -> list[Finding]:
    lines = nic.log.get("probe_exit")
    if not lines or nic.log.get("probe_failed") or nic.driver:
        return []  # the driver core's own line says it (probe-failed), or a driver is bound
    said = _exit_of(lines[-1])
    if said is None:
        return []
    driver, where = said
    summary = (
        f'{label}: {driver}\'s probe gave up on the device ("{lines[-1].split(": ")[-1][:120]}", '
        f"printed on the probe's way out with an error: {where}), "
        "so no driver is bound and it gives no network interface. The driver core says "
        "nothing more when the error is -ENODEV or -ENXIO (drivers/base/dd.c "
        "call_driver_probe() logs those at debug level); the driver's lines before it say why."
    )
    return [Finding("probe-failed", "problem", label, summary, lines[-1:])]
