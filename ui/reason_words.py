"""A tweak's reason as a first-time user reads it: without the kernel source citations
("(drivers/net/usb/usbnet.c: usbnet_probe (alloc_etherdev))", "(ENOENT, net/core/net-sysfs.c:
xps_cpus_store)"), which stay in the tooltip for those who check them (s10 walk, Tune page)."""

from __future__ import annotations

import html
import re

# " (ERRNO, path/file.c: function (detail))" with an optional errno name; paths of the kernel
# tree only, so a reason's other brackets ("(netlink error: ...)") stay.
_SOURCE = re.compile(
    r" ?\((?:[A-Z][A-Z0-9]{1,15}, )?(?:drivers|net|include|arch|kernel)/[\w./-]{1,120}\.[ch]: "
    r"[^()]{0,200}(?:\([^()]{0,200}\)[^()]{0,200}){0,3}\)"
)


def without_sources(text: str) -> str:
    return _SOURCE.sub("", text)


def source_tooltip(text: str) -> str:
    """The whole reason, for the tooltip when citations were taken out ("" when none were);
    escaped, since a tooltip may read text as HTML and a reason quotes the Pi's answers."""
    return html.escape(text) if without_sources(text) != text else ""
